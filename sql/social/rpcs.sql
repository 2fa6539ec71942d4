-- Social RPCs shared by both apps. All SECURITY DEFINER with an empty
-- search_path, granted to authenticated only (peek_friend_code also to anon).
-- Errors: SQLSTATE P0001, message = stable code, hint = what to do.

-- The caller's own profile as jsonb (explicit columns).
create or replace function private.own_profile_json(p_uid uuid) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_build_object(
      'id', p.id, 'username', p.username, 'display_name', p.display_name, 'bio', p.bio,
      'avatar_path', p.avatar_path, 'skill_level', p.skill_level, 'equipment', p.equipment,
      'current_resort_id', p.current_resort_id,
      'discoverable_by_email', p.discoverable_by_email,
      'discoverable_by_phone', p.discoverable_by_phone,
      'onboarded_at', p.onboarded_at,
      'sharing_suspended_at', p.sharing_suspended_at,
      'sharing_suspended_until', p.sharing_suspended_until,
      'created_at', p.created_at, 'updated_at', p.updated_at,
      'server_updated_at', p.server_updated_at)
    from social.profiles p where p.id = p_uid
  $$;

-- How viewer relates to other: self, friend, request_sent, request_received, none.
create or replace function private.relation(p_viewer uuid, p_other uuid) returns text
  language sql stable security definer
  set search_path = ''
  as $$
    select case
      when p_viewer = p_other then 'self'
      when private.is_friend(p_viewer, p_other) then 'friend'
      when exists (select 1 from social.friend_requests r
                   where r.from_id = p_viewer and r.to_id = p_other and r.status = 'pending')
        then 'request_sent'
      when exists (select 1 from social.friend_requests r
                   where r.from_id = p_other and r.to_id = p_viewer and r.status = 'pending'
                     and not r.suppressed)
        then 'request_received'
      else 'none' end
  $$;

-- ---------------------------------------------------------------- profile

create or replace function social.claim_username(p_username text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_signed_in();
  v_name text := private.normalize_username(p_username);
begin
  if private.username_problem(v_name) is not null then
    perform private.fail('username_invalid',
      'Use 3 to 20 characters: a to z, digits and single underscores, starting with a letter and not ending with _.');
  end if;
  if exists (select 1 from social.reserved_usernames where name = v_name) then
    perform private.fail('username_reserved', 'That name is reserved. Pick another one.');
  end if;
  if exists (select 1 from social.profiles where username = v_name and id <> v_uid) then
    perform private.fail('username_taken', 'Someone already has that name. Pick another one.');
  end if;
  begin
    insert into social.profiles (id, username) values (v_uid, v_name)
    on conflict (id) do update set username = excluded.username, updated_at = summit.now()
      where social.profiles.username is distinct from excluded.username;
  exception when unique_violation then
    perform private.fail('username_taken', 'Someone already has that name. Pick another one.');
  end;
  return private.own_profile_json(v_uid);
end
$$;

create or replace function social.update_profile(
  p_bio text default null, p_avatar_path text default null, p_onboarded boolean default null,
  p_display_name text default null, p_skill_level text default null, p_equipment text default null,
  p_current_resort_id text default null, p_discoverable_by_email boolean default null,
  p_discoverable_by_phone boolean default null
) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_bio text := btrim(p_bio);
  v_display text := btrim(p_display_name);
begin
  if v_bio is not null and (char_length(v_bio) > 160 or v_bio ~ '[\r\n]') then
    perform private.fail('bio_too_long', 'A bio is one line of at most 160 characters.');
  end if;
  if v_display is not null and (char_length(v_display) > 50 or v_display ~ '[\r\n]') then
    perform private.fail('display_name_invalid', 'A display name is one line of at most 50 characters.');
  end if;
  if p_avatar_path is not null and p_avatar_path <> ''
     and p_avatar_path !~ ('^' || v_uid::text || '/[0-9a-f-]{36}\.webp$') then
    perform private.fail('avatar_path_invalid',
      'Upload the picture to avatars/{your user id}/{uuid}.webp and pass that path ('''' removes it).');
  end if;
  if p_skill_level is not null and p_skill_level <> ''
     and p_skill_level not in ('beginner', 'intermediate', 'advanced', 'expert') then
    perform private.fail('skill_level_invalid', 'Use beginner, intermediate, advanced or expert.');
  end if;
  if p_equipment is not null and p_equipment <> ''
     and p_equipment not in ('ski', 'snowboard', 'telemark', 'splitboard', 'sit_ski') then
    perform private.fail('equipment_invalid', 'Use ski, snowboard, telemark, splitboard or sit_ski.');
  end if;
  if p_current_resort_id is not null and char_length(p_current_resort_id) > 100 then
    perform private.fail('resort_id_invalid', 'A resort id is at most 100 characters.');
  end if;
  update social.profiles set
    bio = coalesce(v_bio, bio),
    display_name = coalesce(v_display, display_name),
    avatar_path = case when p_avatar_path is null then avatar_path else nullif(p_avatar_path, '') end,
    onboarded_at = case when p_onboarded is null then onboarded_at
                        when p_onboarded then coalesce(onboarded_at, summit.now()) else null end,
    skill_level = case when p_skill_level is null then skill_level else nullif(p_skill_level, '') end,
    equipment = case when p_equipment is null then equipment else nullif(p_equipment, '') end,
    current_resort_id = case when p_current_resort_id is null then current_resort_id
                             else nullif(p_current_resort_id, '') end,
    discoverable_by_email = coalesce(p_discoverable_by_email, discoverable_by_email),
    discoverable_by_phone = coalesce(p_discoverable_by_phone, discoverable_by_phone),
    updated_at = summit.now()
  where id = v_uid;
  return private.own_profile_json(v_uid);
end
$$;

create or replace function social.my_profile() returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_profile jsonb := private.own_profile_json(v_uid);
begin
  return jsonb_build_object(
    'profile', v_profile,
    'suspension', jsonb_build_object(
      'at', v_profile -> 'sharing_suspended_at',
      'until', v_profile -> 'sharing_suspended_until',
      'active', private.suspended(v_uid)),
    'is_admin', exists (select 1 from social.admins where user_id = v_uid),
    'shared_templates', coalesce((
      select jsonb_agg(jsonb_build_object('grid_id', g.id, 'title', g.title, 'color', g.color,
               'theme', g.theme, 'size', g.size, 'shared', g.shared, 'hidden', g.hidden_at is not null)
             order by g.shared_at desc nulls last, g.title)
      from grids.grids g
      where g.owner_id = v_uid and g.shared and not g.deleted), '[]'::jsonb));
end
$$;

-- ------------------------------------------------------------ finding people

create or replace function social.search_usernames(p_query text, p_limit int default 20)
returns table (user_id uuid, username text, avatar_path text, relation text)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_q text := private.normalize_username(p_query);
begin
  if char_length(v_q) < 3 then
    perform private.fail('query_too_short', 'Type at least 3 letters of the username.');
  end if;
  v_q := replace(replace(replace(v_q, '\', '\\'), '%', '\%'), '_', '\_');
  return query
    select p.id, p.username,
           case when private.is_friend(v_uid, p.id) or private.co_members(v_uid, p.id)
                then p.avatar_path end,
           private.relation(v_uid, p.id)
    from social.profiles p
    where p.username like v_q || '%'
      and p.id <> v_uid
      and not private.blocked_pair(v_uid, p.id)
    order by (p.username = private.normalize_username(p_query)) desc, p.username
    limit greatest(1, least(coalesce(p_limit, 20), 20));
end
$$;

-- Contact-book discovery: only people who allow it, never self or a blocked pair.
create or replace function social.find_users_by_emails(p_emails text[])
returns table (user_id uuid, username text, display_name text, avatar_path text, email text)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  if coalesce(cardinality(p_emails), 0) > 1000 then
    perform private.fail('too_many', 'Send at most 1000 addresses per call.');
  end if;
  return query
    select p.id, p.username, p.display_name,
           case when private.is_friend(v_uid, p.id) or private.co_members(v_uid, p.id)
                then p.avatar_path end,
           lower(u.email)
    from (select distinct private.normalize_email(e) as e from unnest(p_emails) e) q
    join auth.users u on lower(u.email) = q.e
    join social.profiles p on p.id = u.id
    where q.e is not null and p.discoverable_by_email and p.id <> v_uid
      and not private.blocked_pair(v_uid, p.id)
    order by p.username;
end
$$;

create or replace function social.find_users_by_phones(p_phones text[])
returns table (user_id uuid, username text, display_name text, avatar_path text, phone text)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_digits text[];
begin
  if coalesce(cardinality(p_phones), 0) > 1000 then
    perform private.fail('too_many', 'Send at most 1000 numbers per call.');
  end if;
  select array_agg(distinct private.normalize_phone(x)) into v_digits
  from unnest(p_phones) x where private.normalize_phone(x) is not null;
  return query
    select p.id, p.username, p.display_name,
           case when private.is_friend(v_uid, p.id) or private.co_members(v_uid, p.id)
                then p.avatar_path end,
           private.normalize_phone(u.phone)
    from social.profiles p
    join auth.users u on u.id = p.id
    where p.discoverable_by_phone and p.id <> v_uid
      and private.normalize_phone(u.phone) = any (coalesce(v_digits, '{}'))
      and not private.blocked_pair(v_uid, p.id)
    order by p.username;
end
$$;

-- Friends, pending requests both ways, blocks and the relay's generation.
create or replace function social.get_social_snapshot() returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return jsonb_build_object(
    'user_id', v_uid,
    'generation', coalesce((select generation from social.social_generations where user_id = v_uid), 1),
    'friends', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', p.id, 'username', p.username,
               'display_name', p.display_name, 'avatar_path', p.avatar_path,
               'skill_level', p.skill_level, 'equipment', p.equipment,
               'current_resort_id', p.current_resort_id, 'since', f.created_at) order by p.username)
      from social.friendships f
      join social.profiles p on p.id = case when f.user_a = v_uid then f.user_b else f.user_a end
      where f.user_a = v_uid or f.user_b = v_uid), '[]'::jsonb),
    'incoming', coalesce((
      select jsonb_agg(jsonb_build_object('request_id', r.id, 'user_id', p.id,
               'username', p.username, 'display_name', p.display_name, 'created_at', r.created_at)
             order by r.created_at)
      from social.friend_requests r join social.profiles p on p.id = r.from_id
      where r.to_id = v_uid and r.status = 'pending' and not r.suppressed), '[]'::jsonb),
    'outgoing', coalesce((
      select jsonb_agg(jsonb_build_object('request_id', r.id, 'user_id', p.id,
               'username', p.username, 'display_name', p.display_name, 'created_at', r.created_at)
             order by r.created_at)
      from social.friend_requests r join social.profiles p on p.id = r.to_id
      where r.from_id = v_uid and r.status in ('pending', 'declined')
        and not private.is_friend(v_uid, r.to_id)
        and not exists (select 1 from social.blocks b where b.blocker_id = v_uid and b.blocked_id = r.to_id)),
      '[]'::jsonb),
    'blocks', coalesce((
      select jsonb_agg(jsonb_build_object('user_id', p.id, 'username', p.username,
               'created_at', b.created_at) order by p.username)
      from social.blocks b join social.profiles p on p.id = b.blocked_id
      where b.blocker_id = v_uid), '[]'::jsonb));
end
$$;

-- ---------------------------------------------------------------- friends

create or replace function private.make_friends(a uuid, b uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  insert into social.friendships (user_a, user_b, created_at)
  values (least(a, b), greatest(a, b), summit.now())
  on conflict do nothing;
  update social.friend_requests set status = 'accepted', responded_at = summit.now()
  where status = 'pending' and ((from_id = a and to_id = b) or (from_id = b and to_id = a));
end
$$;

create or replace function social.send_friend_request(p_user_id uuid) returns text
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_req social.friend_requests;
begin
  if p_user_id is null or not exists (select 1 from social.profiles where id = p_user_id) then
    perform private.fail('not_found', 'No such person.');
  end if;
  if p_user_id = v_uid then
    perform private.fail('not_allowed', 'You cannot send yourself a friend request.');
  end if;
  if exists (select 1 from social.blocks where blocker_id = v_uid and blocked_id = p_user_id) then
    return 'blocked';
  end if;
  if private.is_friend(v_uid, p_user_id) then
    return 'friends';
  end if;
  -- serialise the pair
  perform pg_advisory_xact_lock(hashtextextended(least(v_uid, p_user_id)::text || greatest(v_uid, p_user_id)::text, 7));
  select * into v_req from social.friend_requests
  where from_id = p_user_id and to_id = v_uid and status = 'pending' and not suppressed;
  if found and not exists (select 1 from social.blocks where blocker_id = p_user_id and blocked_id = v_uid) then
    perform private.make_friends(v_uid, p_user_id);
    return 'friends';
  end if;
  if exists (select 1 from social.friend_requests
             where from_id = v_uid and to_id = p_user_id and status = 'pending') then
    return 'sent';
  end if;
  if (select count(*) from social.friend_requests
      where from_id = v_uid and created_at > summit.now() - interval '1 day') >= 50 then
    perform private.fail('rate_limited', 'You sent 50 friend requests today. Try again tomorrow.');
  end if;
  insert into social.friend_requests (from_id, to_id, suppressed, created_at)
  values (v_uid, p_user_id,
          exists (select 1 from social.blocks where blocker_id = p_user_id and blocked_id = v_uid),
          summit.now());
  return 'sent';
end
$$;

create or replace function social.respond_friend_request(p_request_id uuid, p_accept boolean)
returns text
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_req social.friend_requests;
begin
  select * into v_req from social.friend_requests
  where id = p_request_id and to_id = v_uid and status = 'pending' and not suppressed
  for update;
  if not found then
    perform private.fail('not_found', 'No pending request to you with that id.');
  end if;
  if coalesce(p_accept, false) then
    perform private.make_friends(v_uid, v_req.from_id);
    return 'friends';
  end if;
  update social.friend_requests set status = 'declined', responded_at = summit.now()
  where id = v_req.id;
  return 'declined';
end
$$;

create or replace function social.cancel_friend_request(p_request_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  update social.friend_requests set status = 'cancelled', responded_at = summit.now()
  where id = p_request_id and from_id = v_uid and status = 'pending';
  if not found then
    perform private.fail('not_found', 'No pending request from you with that id.');
  end if;
end
$$;

create or replace function social.my_friends()
returns table (user_id uuid, username text, display_name text, avatar_path text, since timestamptz)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return query
    select p.id, p.username, p.display_name, p.avatar_path, f.created_at
    from social.friendships f
    join social.profiles p on p.id = case when f.user_a = v_uid then f.user_b else f.user_a end
    where f.user_a = v_uid or f.user_b = v_uid
    order by p.username;
end
$$;

-- Outgoing: pending, declined and suppressed all look "sent".
create or replace function social.my_friend_requests() returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_snap jsonb := social.get_social_snapshot();
begin
  return jsonb_build_object(
    'incoming', v_snap -> 'incoming',
    'outgoing', coalesce((select jsonb_agg(o || jsonb_build_object('status', 'sent'))
                          from jsonb_array_elements(v_snap -> 'outgoing') o), '[]'::jsonb));
end
$$;

create or replace function social.remove_friend(p_user_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  delete from social.friendships
  where user_a = least(v_uid, p_user_id) and user_b = greatest(v_uid, p_user_id);
end
$$;

create or replace function social.block_user(p_user_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  if p_user_id is null or not exists (select 1 from social.profiles where id = p_user_id) then
    perform private.fail('not_found', 'No such person.');
  end if;
  if p_user_id = v_uid then
    perform private.fail('not_allowed', 'You cannot block yourself.');
  end if;
  insert into social.blocks (blocker_id, blocked_id, created_at)
  values (v_uid, p_user_id, summit.now()) on conflict do nothing;
  delete from social.friendships
  where user_a = least(v_uid, p_user_id) and user_b = greatest(v_uid, p_user_id);
  update social.friend_requests set status = 'cancelled', responded_at = summit.now()
  where from_id = v_uid and to_id = p_user_id and status = 'pending';
  update social.friend_requests set suppressed = true
  where from_id = p_user_id and to_id = v_uid and status = 'pending' and not suppressed;
  -- group invites and group parts: see private.after_block (grids)
end
$$;

create or replace function social.unblock_user(p_user_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  delete from social.blocks where blocker_id = v_uid and blocked_id = p_user_id;
end
$$;

create or replace function social.my_blocks()
returns table (user_id uuid, username text, created_at timestamptz)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return query
    select p.id, p.username, b.created_at
    from social.blocks b join social.profiles p on p.id = b.blocked_id
    where b.blocker_id = v_uid
    order by p.username;
end
$$;

-- ---------------------------------------------------- friend codes and links

create or replace function private.normalize_code(p_code text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select translate(upper(regexp_replace(coalesce(p_code, ''), '^.*/f/|[\s-]', '', 'g')), 'OIL', '011')
  $$;

create or replace function social.create_friend_code(p_kind text default 'link') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_code text;
  v_row social.friend_codes;
begin
  if p_kind is null or p_kind not in ('qr', 'link') then
    perform private.fail('kind_invalid', 'Use qr or link.');
  end if;
  perform 1 from social.profiles where id = v_uid for update;
  loop
    v_code := private.new_friend_code();
    begin
      insert into social.friend_codes (code, owner_id, kind, created_at, expires_at)
      values (v_code, v_uid, p_kind, summit.now(),
              summit.now() + case p_kind when 'link' then interval '7 days' else interval '24 hours' end)
      returning * into v_row;
      exit;
    exception when unique_violation then
      -- 50 random bits: try again
    end;
  end loop;
  -- at most 10 live codes: revoke the oldest beyond that
  update social.friend_codes set revoked_at = summit.now()
  where code in (
    select code from social.friend_codes
    where owner_id = v_uid and redeemed_at is null and revoked_at is null and expires_at > summit.now()
    order by created_at desc, code offset 10);
  return jsonb_build_object('code', v_row.code, 'kind', v_row.kind,
    'expires_at', v_row.expires_at, 'path', '/f/' || v_row.code);
end
$$;

create or replace function social.peek_friend_code(p_code text) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_viewer uuid := case when coalesce(auth.role(), '') = 'anon' then null else auth.uid() end;
  v_row social.friend_codes;
  v_username text;
begin
  select * into v_row from social.friend_codes
  where code = private.normalize_code(p_code)
    and redeemed_at is null and revoked_at is null and expires_at > summit.now();
  if not found then
    return jsonb_build_object('status', 'invalid');
  end if;
  if v_viewer = v_row.owner_id then
    return jsonb_build_object('status', 'own_code');
  end if;
  if v_viewer is not null and private.blocked_pair(v_viewer, v_row.owner_id) then
    return jsonb_build_object('status', 'invalid');
  end if;
  select username into v_username from social.profiles where id = v_row.owner_id;
  return jsonb_build_object('status', 'valid', 'username', v_username);
end
$$;

create or replace function social.redeem_friend_code(p_code text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_row social.friend_codes;
  v_username text;
begin
  select * into v_row from social.friend_codes
  where code = private.normalize_code(p_code)
    and redeemed_at is null and revoked_at is null and expires_at > summit.now()
  for update;
  if not found or private.blocked_pair(v_uid, v_row.owner_id) then
    return jsonb_build_object('status', 'invalid');
  end if;
  if v_row.owner_id = v_uid then
    return jsonb_build_object('status', 'own_code');
  end if;
  select username into v_username from social.profiles where id = v_row.owner_id;
  if private.is_friend(v_uid, v_row.owner_id) then
    return jsonb_build_object('status', 'already_friends', 'user_id', v_row.owner_id,
                              'username', v_username);
  end if;
  perform private.make_friends(v_uid, v_row.owner_id);
  update social.friend_codes set redeemed_by = v_uid, redeemed_at = summit.now()
  where code = v_row.code;
  return jsonb_build_object('status', 'friends', 'user_id', v_row.owner_id, 'username', v_username);
end
$$;

revoke all on function private.own_profile_json(uuid), private.relation(uuid, uuid),
  private.make_friends(uuid, uuid), private.normalize_code(text) from public;

revoke all on function
  social.claim_username(text),
  social.update_profile(text, text, boolean, text, text, text, text, boolean, boolean),
  social.my_profile(), social.search_usernames(text, int),
  social.find_users_by_emails(text[]), social.find_users_by_phones(text[]),
  social.get_social_snapshot(), social.send_friend_request(uuid),
  social.respond_friend_request(uuid, boolean), social.cancel_friend_request(uuid),
  social.my_friends(), social.my_friend_requests(), social.remove_friend(uuid),
  social.block_user(uuid), social.unblock_user(uuid), social.my_blocks(),
  social.create_friend_code(text), social.peek_friend_code(text), social.redeem_friend_code(text)
  from public, anon;
grant execute on function
  social.claim_username(text),
  social.update_profile(text, text, boolean, text, text, text, text, boolean, boolean),
  social.my_profile(), social.search_usernames(text, int),
  social.find_users_by_emails(text[]), social.find_users_by_phones(text[]),
  social.get_social_snapshot(), social.send_friend_request(uuid),
  social.respond_friend_request(uuid, boolean), social.cancel_friend_request(uuid),
  social.my_friends(), social.my_friend_requests(), social.remove_friend(uuid),
  social.block_user(uuid), social.unblock_user(uuid), social.my_blocks(),
  social.create_friend_code(text), social.peek_friend_code(text), social.redeem_friend_code(text)
  to authenticated, service_role;
grant execute on function social.peek_friend_code(text) to anon;
