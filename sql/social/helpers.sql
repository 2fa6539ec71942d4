-- Internal helpers of the social core (schema private). SECURITY DEFINER
-- helpers set an empty search_path and qualify every name. None of them is
-- granted to PUBLIC; the few that RLS policies call are granted to
-- authenticated and only ever answer about the caller.

-- Raise an RPC error: message = stable snake_case code, hint = what to do.
create or replace function private.fail(p_code text, p_hint text default null) returns void
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  raise exception using errcode = 'P0001', message = p_code, hint = coalesce(p_hint, p_code);
end
$$;

-- The server writes of definer code are "internal": they bypass the
-- last-write-wins guard and are stamped per C7. A write is internal when it
-- does not run as a client role (anon/authenticated): definer functions run
-- as their owner, the worker's jobs as service_role, seeds as the owner.
-- No SET clause: that keeps it inlinable, and the rules ask it several times per
-- row written (a SQL function that cannot be inlined is parsed and planned again
-- in every statement that calls it). Its body names nothing a search_path finds.
create or replace function private.internal() returns boolean
  language sql stable
  as $$ select current_user not in ('anon', 'authenticated') $$;

create or replace function private.normalize_username(p_input text) returns text
  language sql immutable
  set search_path = ''
  as $$ select lower(regexp_replace(btrim(coalesce(p_input, '')), '^@', '')) $$;

create or replace function private.normalize_email(p_input text) returns text
  language sql immutable
  set search_path = ''
  as $$ select nullif(lower(btrim(coalesce(p_input, ''))), '') $$;

-- Phones compare as their digits only ("+1 (555) 010-2000" = "15550102000").
create or replace function private.normalize_phone(p_input text) returns text
  language sql immutable
  set search_path = ''
  as $$ select nullif(regexp_replace(coalesce(p_input, ''), '[^0-9]', '', 'g'), '') $$;

-- Why a username is not acceptable, or null when it is (format only).
create or replace function private.username_problem(p_name text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select case
      when p_name !~ '^[a-z][a-z0-9_]{2,19}$' or p_name ~ '__' or p_name ~ '_$' then 'username_invalid'
      else null end
  $$;

-- The signed-in caller, or not_signed_in.
create or replace function private.require_signed_in() returns uuid
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v uuid := auth.uid();
begin
  if v is null or coalesce(auth.role(), 'authenticated') = 'anon' then
    perform private.fail('not_signed_in', 'Sign in first.');
  end if;
  return v;
end
$$;

-- The signed-in caller with a profile, or not_signed_in / no_profile.
create or replace function private.require_user() returns uuid
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v uuid := private.require_signed_in();
begin
  if not exists (select 1 from social.profiles where id = v) then
    perform private.fail('no_profile', 'Choose a username first (claim_username).');
  end if;
  return v;
end
$$;

create or replace function private.is_friend(a uuid, b uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select a is not null and b is not null and exists (
      select 1 from social.friendships
      where user_a = least(a, b) and user_b = greatest(a, b))
  $$;

-- Either one blocked the other.
create or replace function private.blocked_pair(a uuid, b uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select a is not null and b is not null and exists (
      select 1 from social.blocks
      where (blocker_id = a and blocked_id = b) or (blocker_id = b and blocked_id = a))
  $$;

-- Everyone in a blocked pair with the caller, for policies (computed once per query).
create or replace function private.my_blocked_pairs() returns setof uuid
  language sql stable security definer
  set search_path = ''
  as $$
    select blocked_id from social.blocks where blocker_id = auth.uid()
    union
    select blocker_id from social.blocks where blocked_id = auth.uid()
  $$;

create or replace function private.suspended(u uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select exists (
      select 1 from social.profiles p
      where p.id = u and p.sharing_suspended_at is not null
        and (p.sharing_suspended_until is null or p.sharing_suspended_until > summit.now()))
  $$;

create or replace function private.is_admin() returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select coalesce(auth.role(), '') = 'service_role'
        or exists (select 1 from social.admins where user_id = auth.uid())
  $$;

-- The relay's generation number: bump and tell friends:{id} (ids only).
create or replace function private.bump_generation(u uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  g bigint;
begin
  if u is null or not exists (select 1 from social.profiles where id = u) then
    return;
  end if;
  insert into social.social_generations as s (user_id, generation) values (u, 2)
  on conflict (user_id) do update set generation = s.generation + 1
  returning generation into g;
  perform pg_notify('friends:' || u::text, json_build_object('generation', g)::text);
end
$$;

-- Crockford base32, 10 characters, 50 random bits.
create or replace function private.new_friend_code() returns text
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  b bytea := public.gen_random_bytes(10);
  out text := '';
begin
  for i in 0..9 loop
    out := out || substr(alphabet, (get_byte(b, i) % 32) + 1, 1);
  end loop;
  return out;
end
$$;

-- Profiles made at sign-up when the platform passes a usable username in the
-- user metadata (PowderMeet's sign-up flow); otherwise claim_username makes it.
create or replace function private.profile_from_auth_user() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  v_name text := private.normalize_username(new.raw_user_meta_data ->> 'username');
begin
  if v_name <> '' and private.username_problem(v_name) is null
     and not exists (select 1 from social.reserved_usernames where name = v_name)
     and not exists (select 1 from social.profiles where username = v_name) then
    insert into social.profiles (id, username, display_name)
    values (new.id, v_name, left(coalesce(new.raw_user_meta_data ->> 'display_name', ''), 50))
    on conflict do nothing;
  end if;
  return new;
end
$$;

drop trigger if exists profile_from_auth_user on auth.users;
create trigger profile_from_auth_user after insert on auth.users
  for each row execute function private.profile_from_auth_user();

-- Generation bumps and friends:{id} notifications.
create or replace function private.social_change_notify() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
declare
  r record;
begin
  if tg_op = 'DELETE' then r := old; else r := new; end if;
  if tg_table_name = 'friendships' then
    perform private.bump_generation(r.user_a);
    perform private.bump_generation(r.user_b);
  elsif tg_table_name = 'friend_requests' then
    perform private.bump_generation(r.from_id);
    if not r.suppressed then
      perform private.bump_generation(r.to_id);
    end if;
  elsif tg_table_name = 'blocks' then
    -- silent: only the blocker hears about it
    perform private.bump_generation(r.blocker_id);
  end if;
  return null;
end
$$;

drop trigger if exists social_change_notify on social.friendships;
create trigger social_change_notify after insert or update or delete on social.friendships
  for each row execute function private.social_change_notify();
drop trigger if exists social_change_notify on social.friend_requests;
create trigger social_change_notify after insert or update or delete on social.friend_requests
  for each row execute function private.social_change_notify();
drop trigger if exists social_change_notify on social.blocks;
create trigger social_change_notify after insert or update or delete on social.blocks
  for each row execute function private.social_change_notify();

-- Profiles: server clock; username/suspension changes only from definer code.
create or replace function private.profiles_stamp() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  if tg_op = 'UPDATE' and not private.internal() then
    new.username := old.username;
    new.sharing_suspended_at := old.sharing_suspended_at;
    new.sharing_suspended_until := old.sharing_suspended_until;
    new.created_at := old.created_at;
  end if;
  new.server_updated_at := clock_timestamp();
  return new;
end
$$;

drop trigger if exists profiles_stamp on social.profiles;
create trigger profiles_stamp before insert or update on social.profiles
  for each row execute function private.profiles_stamp();

revoke all on function private.fail(text, text), private.internal(), private.normalize_username(text),
  private.normalize_email(text), private.normalize_phone(text), private.username_problem(text),
  private.require_signed_in(), private.require_user(), private.is_friend(uuid, uuid),
  private.blocked_pair(uuid, uuid), private.my_blocked_pairs(), private.suspended(uuid),
  private.is_admin(), private.bump_generation(uuid), private.new_friend_code(),
  private.profile_from_auth_user(), private.social_change_notify(), private.profiles_stamp()
  from public;
-- Trigger bodies and policies run as the client role.
grant execute on function private.fail(text, text), private.internal(),
  private.my_blocked_pairs(), private.require_signed_in()
  to anon, authenticated;
