-- /auth/v1/admin and /invite: the service role's user management, in the auth
-- service's shapes. The gateway lets only the service role key reach these.

-- Attributes as the admin API takes them: email, password, email_confirm,
-- user_metadata, app_metadata, ban_duration ("none" or a Go duration of hours,
-- minutes, seconds). Checked before the caller writes anything.
create or replace function auth.gateway_admin_check(p_attrs jsonb, p_user uuid) returns void
  language plpgsql stable
  set search_path = ''
  as $$
begin
  if p_attrs is null or jsonb_typeof(p_attrs) <> 'object' then
    perform auth.gateway_refuse('validation_failed', 'The body must be a JSON object of user attributes');
  end if;
  if p_attrs ? 'email' then
    if exists (select 1 from auth.users
               where lower(email) = auth.gateway_check_email(p_attrs ->> 'email') and id is distinct from p_user) then
      perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
    end if;
  end if;
  if p_attrs ? 'password' then
    if jsonb_typeof(p_attrs -> 'password') <> 'string' then
      perform auth.gateway_refuse('weak_password', 'password must be a string of 6 characters to 72 bytes.');
    end if;
    perform auth.gateway_check_password(p_attrs ->> 'password');
  end if;
  if (p_attrs ? 'user_metadata' and jsonb_typeof(p_attrs -> 'user_metadata') not in ('object', 'null'))
      or (p_attrs ? 'app_metadata' and jsonb_typeof(p_attrs -> 'app_metadata') not in ('object', 'null')) then
    perform auth.gateway_refuse('validation_failed', 'user_metadata and app_metadata must be JSON objects');
  end if;
  if p_attrs ? 'email_confirm' and jsonb_typeof(p_attrs -> 'email_confirm') <> 'boolean' then
    perform auth.gateway_refuse('validation_failed', 'email_confirm must be true or false');
  end if;
  if p_attrs ? 'ban_duration' and coalesce(p_attrs ->> 'ban_duration', '') !~ '^(none|([0-9]+(\.[0-9]+)?(h|m|s))+)$' then
    perform auth.gateway_refuse('validation_failed', 'ban_duration must be "none" or a duration such as "24h", "90m" or "1h30m"');
  end if;
end
$$;

-- "24h30m" → seconds.
create or replace function auth.gateway_duration_seconds(p_text text) returns numeric
  language sql immutable
  set search_path = ''
  as $$
    select coalesce(sum(m[1]::numeric * case m[2] when 'h' then 3600 when 'm' then 60 else 1 end), 0)
    from regexp_matches(p_text, '([0-9]+(?:\.[0-9]+)?)(h|m|s)', 'g') as m
  $$;

-- Applies checked attributes to an existing user.
create or replace function auth.gateway_admin_apply(p_user uuid, p_attrs jsonb) returns void
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  update auth.users set
    email = case when p_attrs ? 'email' then lower(btrim(p_attrs ->> 'email')) else email end,
    email_confirmed_at = case
      when (p_attrs -> 'email_confirm') = 'true'::jsonb then coalesce(email_confirmed_at, now())
      when (p_attrs -> 'email_confirm') = 'false'::jsonb then null
      else email_confirmed_at end,
    raw_user_meta_data = case when p_attrs ? 'user_metadata'
      then jsonb_strip_nulls(raw_user_meta_data || coalesce(p_attrs -> 'user_metadata', '{}')) else raw_user_meta_data end,
    raw_app_meta_data = case when p_attrs ? 'app_metadata'
      then jsonb_strip_nulls(raw_app_meta_data || coalesce(p_attrs -> 'app_metadata', '{}')) else raw_app_meta_data end,
    banned_until = case
      when not p_attrs ? 'ban_duration' then banned_until
      when p_attrs ->> 'ban_duration' = 'none' then null
      else now() + make_interval(secs => auth.gateway_duration_seconds(p_attrs ->> 'ban_duration')::double precision) end,
    updated_at = now()
  where id = p_user;
  if p_attrs ? 'password' then
    insert into auth.password_hashes (user_id, hash)
    values (p_user, public.crypt(p_attrs ->> 'password', public.gen_salt('bf', 10)))
    on conflict (user_id) do update set hash = excluded.hash, updated_at = now();
  end if;
  perform auth.gateway_sync_email_identity(p_user);
  if p_attrs ? 'ban_duration' and p_attrs ->> 'ban_duration' <> 'none' then
    update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'banned'
    where user_id = p_user and revoked_at is null;
  end if;
end
$$;

create or replace function auth.gateway_admin_create_user(p_attrs jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_user uuid;
begin
  perform auth.gateway_admin_check(p_attrs, null);
  if coalesce(p_attrs ->> 'email', '') = '' then
    perform auth.gateway_refuse('validation_failed', 'Unable to validate email address: invalid format');
  end if;
  insert into auth.users (email) values (lower(btrim(p_attrs ->> 'email'))) returning id into v_user;
  perform auth.gateway_admin_apply(v_user, p_attrs);
  return auth.gateway_user_json(v_user);
end
$$;

create or replace function auth.gateway_admin_get_user(p_user uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  if not exists (select 1 from auth.users where id = p_user) then
    perform auth.gateway_refuse('user_not_found', 'User not found');
  end if;
  return auth.gateway_user_json(p_user);
end
$$;

-- A page of users, oldest first, and how many there are.
create or replace function auth.gateway_admin_list_users(p_page integer, p_per_page integer) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    -- Newest first, as the platform lists them: a page of 50 shows who just signed up.
    select jsonb_build_object(
      'users', coalesce((select jsonb_agg(auth.gateway_user_json(id) order by created_at desc, id desc)
                         from (select id, created_at from auth.users where deleted_at is null
                               order by created_at desc, id desc offset (p_page - 1) * p_per_page limit p_per_page) page), '[]'),
      'total', (select count(*) from auth.users where deleted_at is null))
  $$;

create or replace function auth.gateway_admin_update_user(p_user uuid, p_attrs jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform auth.gateway_admin_get_user(p_user);
  perform auth.gateway_admin_check(p_attrs, p_user);
  perform auth.gateway_admin_apply(p_user, p_attrs);
  return auth.gateway_user_json(p_user);
end
$$;

-- Soft: the account stays as a tombstone without password or sessions, and
-- signs in no more. Hard: the person's data goes as account deletion takes it
-- (files queued for the worker), then the account itself.
create or replace function auth.gateway_admin_delete_user(p_user uuid, p_soft boolean) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_user jsonb := auth.gateway_admin_get_user(p_user);
begin
  update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'user deleted'
  where user_id = p_user and revoked_at is null;
  if p_soft then
    delete from auth.password_hashes where user_id = p_user;
    update auth.one_time_codes set used_at = now() where user_id = p_user and used_at is null;
    update auth.users set deleted_at = coalesce(deleted_at, now()), updated_at = now() where id = p_user;
  else
    perform private.delete_account(p_user);
    delete from auth.users where id = p_user;
  end if;
  return v_user;
end
$$;

-- POST /admin/generate_link: the link and code a mail would carry, handed to the
-- service instead of sent. signup makes the account (with its password), invite
-- and magiclink make it when missing.
create or replace function auth.gateway_admin_generate_link(p_type text, p_email text, p_password text, p_data jsonb,
                                                            p_new_email text, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
  u auth.users := auth.gateway_user_by_email(v_email);
  v_purpose text;
  v_to text := v_email;
  v_mail jsonb;
begin
  if p_type not in ('signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new') then
    perform auth.gateway_refuse('validation_failed',
      'type must be one of signup, invite, magiclink, recovery, email_change_current, email_change_new');
  end if;
  perform auth.gateway_check_metadata(p_data);
  if p_type = 'signup' then
    if u.id is not null then
      perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
    end if;
    perform auth.gateway_admin_check(jsonb_build_object('password', p_password), null);
  elsif p_type in ('recovery', 'email_change_current', 'email_change_new') and u.id is null then
    perform auth.gateway_refuse('user_not_found', 'User with this email not found');
  elsif p_type = 'invite' and u.email_confirmed_at is not null then
    perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
  end if;
  if p_type like 'email_change%' then
    v_to := auth.gateway_check_email(p_new_email);
    if exists (select 1 from auth.users where lower(email) = v_to) then
      perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
    end if;
  end if;
  if u.id is null then
    insert into auth.users (email, raw_user_meta_data) values (v_email, coalesce(p_data, '{}')) returning * into u;
    perform auth.gateway_sync_email_identity(u.id);
    if p_type = 'signup' then
      insert into auth.password_hashes (user_id, hash) values (u.id, public.crypt(p_password, public.gen_salt('bf', 10)));
    end if;
  end if;
  v_purpose := case p_type when 'signup' then 'confirmation' when 'email_change_current' then 'email_change'
                           when 'email_change_new' then 'email_change' else p_type end;
  if v_purpose = 'email_change' then
    update auth.users set email_change = v_to where id = u.id;
  end if;
  v_mail := auth.gateway_issue_code(u.id, v_purpose, v_to, null, null, 0, p_lifetime);
  -- The type as asked (the clients know email_change_current and email_change_new, not email_change).
  return jsonb_build_object('mail', v_mail, 'user', auth.gateway_user_json(u.id), 'verification_type', p_type);
end
$$;

-- POST /invite: an account waiting for its owner, and the invitation to send.
create or replace function auth.gateway_admin_invite(p_email text, p_data jsonb, p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
  u auth.users := auth.gateway_user_by_email(v_email);
  v_mail jsonb;
begin
  if u.id is not null and u.email_confirmed_at is not null then
    perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
  end if;
  perform auth.gateway_check_metadata(p_data);
  if u.id is null then
    insert into auth.users (email, raw_user_meta_data) values (v_email, coalesce(p_data, '{}')) returning * into u;
    perform auth.gateway_sync_email_identity(u.id);
  end if;
  -- The code first, in its own statement: the user read after it shows invited_at.
  v_mail := auth.gateway_issue_code(u.id, 'invite', v_email, null, null, p_interval, p_lifetime);
  return jsonb_build_object('mail', v_mail, 'user', auth.gateway_user_json(u.id));
end
$$;

revoke all on function auth.gateway_admin_check(jsonb, uuid), auth.gateway_duration_seconds(text),
  auth.gateway_admin_apply(uuid, jsonb), auth.gateway_admin_create_user(jsonb), auth.gateway_admin_get_user(uuid),
  auth.gateway_admin_list_users(integer, integer), auth.gateway_admin_update_user(uuid, jsonb),
  auth.gateway_admin_delete_user(uuid, boolean), auth.gateway_admin_generate_link(text, text, text, jsonb, text, integer),
  auth.gateway_admin_invite(text, jsonb, integer, integer)
  from public, anon, authenticated;
grant execute on function auth.gateway_admin_create_user(jsonb), auth.gateway_admin_get_user(uuid),
  auth.gateway_admin_list_users(integer, integer), auth.gateway_admin_update_user(uuid, jsonb),
  auth.gateway_admin_delete_user(uuid, boolean), auth.gateway_admin_generate_link(text, text, text, jsonb, text, integer),
  auth.gateway_admin_invite(text, jsonb, integer, integer)
  to service_role;
