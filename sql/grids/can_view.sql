-- can_view(): the one visibility rule for other people's content (§4).
--
-- For a solo object the rule reduces to: the owner sees everything; anyone
-- else sees it iff cap(owner, least(moment, grid)) >= admit_floor(owner,
-- viewer), where the floor is 'friends' for a friend, 'public' for any other
-- signed-in person and null (nothing) for anon or a blocked pair. The
-- set-based readers (person_grid, visible_moments_of) use the same two
-- functions, computed once per owner, so they agree with can_view row by row.

-- cap(owner, aud): suspended people reach friends at most.
create or replace function private.cap(p_owner uuid, p_aud grids.audience) returns grids.audience
  language sql stable security definer
  set search_path = ''
  as $$
    select case when private.suspended(p_owner) then least(p_aud, 'friends'::grids.audience) else p_aud end
  $$;

-- The narrowest effective audience p_viewer is admitted to for p_owner's
-- solo content; 'private' for the owner; null = nothing.
create or replace function private.admit_floor(p_owner uuid, p_viewer uuid) returns grids.audience
  language sql stable security definer
  set search_path = ''
  as $$
    select case
      when p_viewer is null or p_owner is null then null
      when p_viewer = p_owner then 'private'::grids.audience
      when private.blocked_pair(p_owner, p_viewer) then null
      when private.is_friend(p_owner, p_viewer) then 'friends'::grids.audience
      else 'public'::grids.audience end
  $$;

-- admits(aud, owner, viewer) of §4.1, with cap applied by the caller.
create or replace function private.admits(p_aud grids.audience, p_owner uuid, p_viewer uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select coalesce(p_aud >= private.admit_floor(p_owner, p_viewer), false)
  $$;

create or replace function private.can_view(p_viewer uuid, p_kind text, p_id uuid) returns boolean
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  ug grids.user_grids;
  m grids.moments;
  e grids.moment_entries;
  ph grids.photos;
  g grids.grids;
begin
  -- a client may only ask about itself
  if private.client_call() and p_viewer is distinct from auth.uid() then
    return false;
  end if;
  if p_viewer is null or p_id is null then
    return false;
  end if;
  case p_kind
  when 'profile' then
    return exists (select 1 from social.profiles where id = p_id)
       and (p_viewer = p_id or not private.blocked_pair(p_viewer, p_id));
  when 'avatar' then
    return exists (select 1 from social.profiles where id = p_id)
       and (p_viewer = p_id or (not private.blocked_pair(p_viewer, p_id)
            and (private.is_friend(p_viewer, p_id) or private.co_members(p_viewer, p_id))));
  when 'user_grid' then
    select * into ug from grids.user_grids where id = p_id;
    if not found or ug.deleted then return false; end if;
    if ug.group_id is not null then return private.is_member(ug.group_id, p_viewer); end if;
    return ug.user_id = p_viewer
        or coalesce(private.cap(ug.user_id, ug.audience) >= private.admit_floor(ug.user_id, p_viewer), false);
  when 'moment' then
    select * into m from grids.moments where id = p_id;
    if not found or m.deleted then return false; end if;
    if m.group_id is not null then return private.is_member(m.group_id, p_viewer); end if;
    if m.user_id = p_viewer then return true; end if;
    if m.hidden_at is not null then return false; end if;
    select * into ug from grids.user_grids where id = m.user_grid_id;
    if not found or ug.deleted then return false; end if;
    return coalesce(private.cap(m.user_id, least(m.audience, ug.audience))
                    >= private.admit_floor(m.user_id, p_viewer), false);
  when 'entry' then
    select * into e from grids.moment_entries where id = p_id;
    if not found or e.deleted or not private.is_member(e.group_id, p_viewer) then return false; end if;
    if e.author_id = p_viewer then return true; end if;
    return e.audience = 'group' and not private.blocked_pair(e.author_id, p_viewer)
       and exists (select 1 from grids.moments x where x.id = e.moment_id and x.hidden_at is null);
  when 'photo' then
    select * into ph from grids.photos where id = p_id;
    if not found or ph.deleted then return false; end if;
    if ph.group_id is not null then
      if not private.is_member(ph.group_id, p_viewer) then return false; end if;
      if ph.user_id = p_viewer then return true; end if;
      return ph.audience = 'group' and not private.blocked_pair(ph.user_id, p_viewer)
         and exists (select 1 from grids.moments x where x.id = ph.moment_id and x.hidden_at is null);
    end if;
    return ph.user_id = p_viewer or private.can_view(p_viewer, 'moment', ph.moment_id);
  when 'grid' then
    select * into g from grids.grids where id = p_id;
    if not found or g.deleted then return false; end if;
    return g.owner_id = p_viewer
        or g.kind in ('starter', 'curated')
        or (private.in_atlas(g) and not private.blocked_pair(g.owner_id, p_viewer))
        or exists (select 1 from grids.user_grids x
                   where x.grid_id = g.id and not x.deleted
                     and ((x.group_id is null and x.user_id = p_viewer)
                          or private.is_member(x.group_id, p_viewer)
                          or (x.group_id is null and private.can_view(p_viewer, 'user_grid', x.id))));
  else
    perform private.fail('kind_invalid', 'kind is one of profile, avatar, grid, user_grid, moment, entry, photo.');
  end case;
  return false;
end
$$;

revoke all on function private.cap(uuid, grids.audience), private.admit_floor(uuid, uuid),
  private.admits(grids.audience, uuid, uuid), private.can_view(uuid, text, uuid) from public;
-- storage policies call can_view as the client; it answers only about the caller
grant execute on function private.can_view(uuid, text, uuid) to anon, authenticated;
