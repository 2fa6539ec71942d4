-- AirStrive read RPCs for other people's content, the Atlas, and templates
-- (§5.1, §5.2, §5.3). SECURITY DEFINER, empty search_path, authenticated
-- only; every answer is built from explicit columns and passes can_view()
-- (or its set form: cap() >= admit_floor()).

create or replace function private.card(g grids.grids) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_build_object('grid_id', g.id, 'title', g.title, 'color', g.color, 'theme', g.theme,
      'size', g.size, 'description', g.description, 'kind', g.kind,
      'maker_username', (select username from social.profiles where id = g.owner_id))
  $$;

-- The moment object others may see: never place, weather or with_whom.
create or replace function private.moment_object(p_viewer uuid, m grids.moments) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_build_object('id', m.id, 'title', m.title, 'happened_on', m.happened_on, 'body', m.body,
      'photos', coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'storage_path', p.storage_path,
                   'sort', p.sort, 'width', p.width, 'height', p.height) order by p.sort, p.id)
                 from grids.photos p where p.moment_id = m.id and not p.deleted
                   and p.uploaded_at is not null), '[]'::jsonb))
  $$;

create or replace function grids.profile_view(p_user_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  p social.profiles;
  v_floor grids.audience;
  v_susp boolean;
begin
  if not private.can_view(v_uid, 'profile', p_user_id) then
    return null;
  end if;
  select * into p from social.profiles where id = p_user_id;
  v_floor := private.admit_floor(p_user_id, v_uid);
  v_susp := private.suspended(p_user_id);
  return jsonb_build_object(
    'user_id', p.id, 'username', p.username, 'display_name', p.display_name, 'bio', p.bio,
    'avatar_path', case when private.can_view(v_uid, 'avatar', p.id) then p.avatar_path end,
    'relation', private.relation(v_uid, p.id),
    'grids', coalesce((
      select jsonb_agg(jsonb_build_object('user_grid_id', ug.id, 'title', g.title, 'color', g.color,
               'theme', g.theme, 'size', g.size) order by ug.created_at, ug.id)
      from grids.user_grids ug join grids.grids g on g.id = ug.grid_id
      where ug.user_id = p.id and ug.group_id is null and not ug.deleted
        and (v_uid = p.id or (case when v_susp then least(ug.audience, 'friends') else ug.audience end) >= v_floor)),
      '[]'::jsonb));
end
$$;

create or replace function grids.person_grid(p_user_grid_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  ug grids.user_grids;
  g grids.grids;
  v_floor grids.audience;
  v_susp boolean;
begin
  select * into ug from grids.user_grids where id = p_user_grid_id;
  if not found or ug.group_id is not null or not private.can_view(v_uid, 'user_grid', ug.id) then
    return null;
  end if;
  select * into g from grids.grids where id = ug.grid_id;
  v_floor := private.admit_floor(ug.user_id, v_uid);
  v_susp := private.suspended(ug.user_id);
  return jsonb_build_object(
    'user_grid_id', ug.id, 'owner_username', (select username from social.profiles where id = ug.user_id),
    'grid_id', g.id, 'title', g.title, 'description', g.description, 'color', g.color, 'theme', g.theme,
    'size', g.size, 'audience', ug.audience,
    'squares', (
      select jsonb_agg(jsonb_build_object(
               'position', s.position,
               'state', case when s.freebie_at is not null or m.id is not null then 'done'
                             when s.revealed_at is not null then 'revealed' else 'hidden' end,
               'freebie', s.freebie_at is not null,
               'prompt', case when s.revealed_at is not null or s.freebie_at is not null or m.id is not null
                              then gs.prompt end,
               'moment', case when m.id is not null and (v_uid = ug.user_id or (m.hidden_at is null and
                               (case when v_susp then least(least(m.audience, ug.audience), 'friends')
                                     else least(m.audience, ug.audience) end) >= v_floor))
                              then private.moment_object(v_uid, m) end)
             order by s.position)
      from grids.user_squares s
      join grids.grid_squares gs on gs.grid_id = g.id and gs.position = s.position
      left join grids.moments m on m.user_square_id = s.id and not m.deleted
      where s.user_grid_id = ug.id));
end
$$;

create or replace function grids.person_moment(p_moment_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  m grids.moments;
begin
  select * into m from grids.moments where id = p_moment_id;
  if not found or m.group_id is not null or not private.can_view(v_uid, 'moment', m.id) then
    return null;
  end if;
  return private.moment_object(v_uid, m) || jsonb_build_object(
    'user_grid_id', m.user_grid_id,
    'grid_title', (select g.title from grids.user_grids ug join grids.grids g on g.id = ug.grid_id
                   where ug.id = m.user_grid_id),
    'owner_username', (select username from social.profiles where id = m.user_id));
end
$$;

-- One person's moments the caller may see, newest first: the friend-profile
-- read (and the benchmark's). Same rule as can_view(viewer, 'moment', id),
-- with the viewer's relation to the owner computed once.
create or replace function grids.visible_moments_of(p_user_id uuid, p_limit int default 100,
  p_before timestamptz default null)
returns table (moment_id uuid, user_grid_id uuid, title text, happened_on date, body text, created_at timestamptz)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_floor grids.audience := private.admit_floor(p_user_id, v_uid);
  v_susp boolean := private.suspended(p_user_id);
begin
  if v_floor is null then
    return;
  end if;
  return query
    select m.id, m.user_grid_id, m.title, m.happened_on, m.body, m.created_at
    from grids.moments m
    join grids.user_grids ug on ug.id = m.user_grid_id
    where m.user_id = p_user_id and m.group_id is null and not m.deleted and not ug.deleted
      and (p_before is null or m.created_at < p_before)
      and (v_floor = 'private' or (m.hidden_at is null and
           (case when v_susp then least(least(m.audience, ug.audience), 'friends')
                 else least(m.audience, ug.audience) end) >= v_floor))
    order by m.created_at desc, m.id
    limit least(greatest(coalesce(p_limit, 100), 1), 500);
end
$$;

-- ------------------------------------------------------------ Atlas

create or replace function grids.atlas_search(p_query text default null, p_theme text default null,
  p_size smallint default null, p_limit int default 20, p_offset int default 0) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_q text := nullif(btrim(coalesce(p_query, '')), '');
  v_ts tsquery := case when v_q is null then null else websearch_to_tsquery('simple', v_q) end;
begin
  return coalesce((
    select jsonb_agg(private.card(s.g) order by s.rank desc, s.sim desc, (s.g).title, (s.g).id)
    from (
      select g, ts_rank(g.search_doc, v_ts) as rank,
             case when v_q is null then 0 else public.similarity(g.title, v_q) end as sim
      from grids.grids g
      where private.in_atlas(g) and not private.blocked_pair(g.owner_id, v_uid)
        and (p_theme is null or g.theme = p_theme)
        and (p_size is null or g.size = p_size)
        and (v_q is null or g.search_doc @@ v_ts or g.title operator(public.%) v_q
             or g.title ilike '%' || v_q || '%')
      order by 2 desc, 3 desc, g.title, g.id
      limit least(greatest(coalesce(p_limit, 20), 1), 50) offset greatest(coalesce(p_offset, 0), 0)) s), '[]'::jsonb);
end
$$;

create or replace function grids.atlas_this_season(p_month smallint, p_southern boolean default false,
  p_limit int default 20) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_month smallint;
begin
  if p_month is null or p_month not between 1 and 12 then
    perform private.fail('month_invalid', 'Pass a month from 1 to 12.');
  end if;
  v_month := case when coalesce(p_southern, false) then ((p_month + 5) % 12) + 1 else p_month end;
  return coalesce((
    select jsonb_agg(private.card(s.g) order by (s.g).kind = 'made', (s.g).title, (s.g).id)
    from (select g from grids.grids g
          where g.season_months @> array[v_month]::smallint[] and private.in_atlas(g)
            and not private.blocked_pair(g.owner_id, v_uid)
          order by g.kind = 'made', g.title, g.id
          limit least(greatest(coalesce(p_limit, 20), 1), 50)) s), '[]'::jsonb);
end
$$;

create or replace function grids.atlas_rows(p_interests text[] default null, p_per_row int default 12)
returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_per int := least(greatest(coalesce(p_per_row, 12), 1), 30);
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object('theme', t.slug, 'label', t.label, 'grids', t.cards)
                     order by t.pri, t.sort, t.slug)
    from (
      select th.slug, th.label, th.sort,
             coalesce((select min(i.ord * 100 + 1) from unnest(p_interests) with ordinality i(slug, ord)
                       join grids.interest_themes it on it.interest = i.slug where it.theme = th.slug),
                      1000000) as pri,
             (select jsonb_agg(private.card(x.g) order by case (x.g).kind when 'starter' then 0 when 'curated' then 1 else 2 end,
                               (x.g).shared_at desc nulls last, (x.g).title, (x.g).id)
              from (select g from grids.grids g
                    where g.theme = th.slug and private.in_atlas(g) and not private.blocked_pair(g.owner_id, v_uid)
                    order by case g.kind when 'starter' then 0 when 'curated' then 1 else 2 end,
                             g.shared_at desc nulls last, g.title, g.id
                    limit v_per) x) as cards
      from grids.themes th where th.active) t
    where t.cards is not null), '[]'::jsonb);
end
$$;

create or replace function grids.atlas_preview(p_grid_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  g grids.grids;
begin
  if not private.can_view(v_uid, 'grid', p_grid_id) then
    return null;
  end if;
  select * into g from grids.grids where id = p_grid_id;
  return private.card(g) || jsonb_build_object(
    'squares', (select jsonb_agg(jsonb_build_object('position', position, 'prompt', prompt) order by position)
                from grids.grid_squares where grid_id = g.id),
    'reveal_order', to_jsonb(private.reveal_order(g.size)),
    'can_add', private.can_use_grid(v_uid, g.id),
    'can_report', g.kind = 'made' and g.owner_id is distinct from v_uid);
end
$$;

create or replace function private.grid_json(g grids.grids) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_build_object('id', g.id, 'kind', g.kind, 'owner_id', g.owner_id, 'starter_key', g.starter_key,
      'source_grid_id', g.source_grid_id, 'title', g.title, 'description', g.description, 'color', g.color,
      'theme', g.theme, 'size', g.size, 'season_months', g.season_months, 'shared', g.shared,
      'shared_at', g.shared_at, 'hidden_at', g.hidden_at, 'created_at', g.created_at,
      'updated_at', g.updated_at, 'device_id', g.device_id, 'server_updated_at', g.server_updated_at,
      'deleted', g.deleted,
      'squares', (select coalesce(jsonb_agg(prompt order by position), '[]'::jsonb)
                  from grids.grid_squares where grid_id = g.id))
  $$;

create or replace function grids.get_template(p_grid_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  g grids.grids;
begin
  if not private.can_use_grid(v_uid, p_grid_id) then
    perform private.fail('not_found', 'No grid you can use with that id.');
  end if;
  select * into g from grids.grids where id = p_grid_id;
  return private.grid_json(g);
end
$$;

-- ------------------------------------------------------------ save_grid

create or replace function private.grid_search_doc(p_title text, p_description text, p_prompts text[])
returns tsvector
  language sql immutable
  set search_path = ''
  as $$
    select setweight(to_tsvector('simple', coalesce(p_title, '')), 'A')
        || setweight(to_tsvector('simple', coalesce(p_description, '')), 'B')
        || setweight(to_tsvector('simple', coalesce(array_to_string(p_prompts, ' '), '')), 'C')
  $$;

create or replace function grids.save_grid(p_grid jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_id uuid;
  g grids.grids;
  v_title text := btrim(p_grid ->> 'title');
  v_desc text := btrim(coalesce(p_grid ->> 'description', ''));
  v_color text := p_grid ->> 'color';
  v_theme text := p_grid ->> 'theme';
  v_size int;
  v_prompts text[];
  v_shared boolean := coalesce((p_grid ->> 'shared')::boolean, false);
  v_deleted boolean := coalesce((p_grid ->> 'deleted')::boolean, false);
  v_created timestamptz := coalesce((p_grid ->> 'created_at')::timestamptz, summit.now());
  v_updated timestamptz := coalesce((p_grid ->> 'updated_at')::timestamptz, v_created);
  v_device uuid := coalesce((p_grid ->> 'device_id')::uuid, private.nil_uuid());
  v_source uuid := (p_grid ->> 'source_grid_id')::uuid;
  v_susp boolean := private.suspended(v_uid);
  v_status text := 'unchanged';
  v_warnings text[] := '{}';
  v_bad int;
begin
  begin
    v_id := (p_grid ->> 'id')::uuid;
    v_size := (p_grid ->> 'size')::int;
  exception when others then
    perform private.fail('grid_invalid', 'id must be a uuid and size a number.');
  end;
  if v_id is null then
    perform private.fail('grid_invalid', 'A grid needs an id (uuid).');
  end if;
  if v_updated > summit.now() + interval '10 minutes' then
    v_updated := summit.now();
  end if;
  select * into g from grids.grids where id = v_id for update;

  if found and g.owner_id is distinct from v_uid then
    perform private.fail('not_allowed', 'Only the grid''s maker can change it; copy it to make your own.');
  end if;

  -- validate the editable fields (new grids: all of them)
  if not found or not v_deleted then
    if v_title is null or char_length(v_title) not between 1 and 40 then
      perform private.fail('title_invalid', 'A title is 1 to 40 characters.');
    end if;
    if char_length(v_desc) > 200 then
      perform private.fail('description_too_long', 'A description is at most 200 characters.');
    end if;
    if v_color is null or v_color not in ('coral', 'amber', 'lemon', 'sage', 'teal', 'sky', 'indigo', 'plum',
                                          'rose', 'sand', 'slate', 'ink') then
      perform private.fail('color_invalid', 'Use one of the palette colours: coral, amber, lemon, sage, teal, sky, indigo, plum, rose, sand, slate, ink.');
    end if;
    if v_theme is null or not exists (select 1 from grids.themes where slug = v_theme and active) then
      perform private.fail('theme_invalid', 'Use one of the Atlas themes (grids.themes).');
    end if;
  end if;

  if not found then
    if v_deleted then
      return jsonb_build_object('grid', null, 'squares', null, 'status', 'unchanged',
                                'sharing_suspended', false, 'hidden', false, 'warnings', '[]'::jsonb);
    end if;
    if v_size is null or not exists (select 1 from grids.grid_sizes where side = v_size) then
      perform private.fail('size_invalid', 'Use a board side from grids.grid_sizes (7, 8, 9 or 10).');
    end if;
    if jsonb_typeof(p_grid -> 'squares') is distinct from 'array'
       or jsonb_array_length(p_grid -> 'squares') <> v_size * v_size then
      perform private.fail('squares_count', format('A %s x %s grid needs exactly %s squares.', v_size, v_size, v_size * v_size));
    end if;
    select array_agg(btrim(x) order by i) into v_prompts
    from jsonb_array_elements_text(p_grid -> 'squares') with ordinality s(x, i);
    select min(i) - 1 into v_bad from unnest(v_prompts) with ordinality s(x, i)
    where x is null or char_length(x) not between 1 and 80;
    if v_bad is not null then
      perform private.fail('prompt_invalid', format('Each square is 1 to 80 characters; position %s is not.', v_bad));
    end if;
    if (select count(distinct lower(x)) from unnest(v_prompts) x) <> cardinality(v_prompts) then
      perform private.fail('prompts_duplicate', 'Two squares say the same thing; make every square different.');
    end if;
    if v_source is not null and not private.can_view(v_uid, 'grid', v_source) then
      v_source := null;
    end if;
    insert into grids.grids (id, kind, owner_id, source_grid_id, title, description, color, theme, size,
                             shared, shared_at, search_doc, created_at, updated_at, device_id)
    values (v_id, 'made', v_uid, v_source, v_title, v_desc, v_color, v_theme, v_size,
            v_shared and not v_susp, case when v_shared and not v_susp then summit.now() end,
            private.grid_search_doc(v_title, v_desc, v_prompts), v_created, v_updated, v_device)
    returning * into g;
    insert into grids.grid_squares (grid_id, position, prompt)
    select v_id, (i - 1)::smallint, x from unnest(v_prompts) with ordinality s(x, i);
    v_status := 'created';
  elsif g.deleted then
    v_status := 'unchanged';
  elsif v_deleted then
    -- delete: unshare; tombstone only if nobody else uses it
    update grids.grids set shared = false,
      deleted = not exists (select 1 from grids.user_grids ug where ug.grid_id = g.id and not ug.deleted
                              and (ug.user_id is distinct from v_uid or ug.group_id is not null)),
      updated_at = greatest(g.updated_at, v_updated)
    where id = g.id returning * into g;
    v_status := 'updated';
  else
    if (v_size is not null and v_size <> g.size)
       or (p_grid -> 'squares' is not null and jsonb_typeof(p_grid -> 'squares') = 'array'
           and (select coalesce(array_agg(btrim(x) order by i), '{}') from jsonb_array_elements_text(p_grid -> 'squares') with ordinality s(x, i))
               is distinct from (select array_agg(prompt order by position) from grids.grid_squares where grid_id = g.id)) then
      v_warnings := v_warnings || 'squares_fixed'::text;
    end if;
    if (v_updated, v_device) >= (g.updated_at, g.device_id) then
      update grids.grids set title = v_title, description = v_desc, color = v_color, theme = v_theme,
        -- A hidden grid keeps its maker's choice (hidden_at keeps it out of the Atlas),
        -- so an unhide puts it back as the maker left it.
        shared = v_shared and not v_susp,
        shared_at = case when v_shared and not v_susp and not shared then summit.now() else shared_at end,
        search_doc = private.grid_search_doc(v_title, v_desc,
                       (select array_agg(prompt order by position) from grids.grid_squares where grid_id = g.id)),
        updated_at = v_updated, device_id = v_device
      where id = g.id returning * into g;
      v_status := 'updated';
    end if;
  end if;
  select * into g from grids.grids where id = v_id;
  return jsonb_build_object('grid', private.grid_json(g),
    'squares', (select coalesce(jsonb_agg(prompt order by position), '[]'::jsonb) from grids.grid_squares where grid_id = g.id),
    'status', v_status,
    'sharing_suspended', v_shared and v_susp,
    'hidden', v_shared and g.hidden_at is not null,
    'warnings', to_jsonb(v_warnings));
end
$$;

create or replace function grids.set_grid_shared(p_grid_id uuid, p_shared boolean) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  g grids.grids;
begin
  select * into g from grids.grids where id = p_grid_id and not deleted;
  if not found or g.owner_id is distinct from v_uid then
    perform private.fail('not_found', 'No grid of yours with that id.');
  end if;
  return grids.save_grid(private.grid_json(g) || jsonb_build_object('shared', coalesce(p_shared, false),
    'updated_at', greatest(summit.now(), g.updated_at), 'device_id', g.device_id));
end
$$;

create or replace function grids.remove_from_shelf(p_user_grid_id uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  ug grids.user_grids;
begin
  select * into ug from grids.user_grids where id = p_user_grid_id and not deleted for update;
  if not found or (ug.group_id is null and ug.user_id is distinct from v_uid)
     or (ug.group_id is not null and not private.is_member(ug.group_id, v_uid)) then
    perform private.fail('not_found', 'No grid on your shelf with that id.');
  end if;
  if ug.group_id is not null then
    perform private.fail('use_leave_group', 'A group grid leaves your shelf when you leave the group (leave_group).');
  end if;
  if exists (select 1 from grids.moments where user_grid_id = ug.id and not deleted) then
    perform private.fail('grid_has_moments', 'Only grids with no moments can be removed; delete its moments first.');
  end if;
  update grids.user_grids set deleted = true where id = ug.id;
  return jsonb_build_object('removed', true);
end
$$;

revoke all on function private.card(grids.grids), private.moment_object(uuid, grids.moments),
  private.grid_json(grids.grids), private.grid_search_doc(text, text, text[]) from public;
revoke all on function grids.profile_view(uuid), grids.person_grid(uuid), grids.person_moment(uuid),
  grids.visible_moments_of(uuid, int, timestamptz),
  grids.atlas_search(text, text, smallint, int, int), grids.atlas_this_season(smallint, boolean, int),
  grids.atlas_rows(text[], int), grids.atlas_preview(uuid), grids.get_template(uuid),
  grids.save_grid(jsonb), grids.set_grid_shared(uuid, boolean), grids.remove_from_shelf(uuid)
  from public, anon;
grant execute on function grids.profile_view(uuid), grids.person_grid(uuid), grids.person_moment(uuid),
  grids.visible_moments_of(uuid, int, timestamptz),
  grids.atlas_search(text, text, smallint, int, int), grids.atlas_this_season(smallint, boolean, int),
  grids.atlas_rows(text[], int), grids.atlas_preview(uuid), grids.get_template(uuid),
  grids.save_grid(jsonb), grids.set_grid_shared(uuid, boolean), grids.remove_from_shelf(uuid)
  to authenticated, service_role;
