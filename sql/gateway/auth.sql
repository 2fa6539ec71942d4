-- /auth/v1 of summit serve: sign-up, password and refresh-token grants, sign-out
-- and the user as the hosted platform's auth service shows it. Every function is
-- SECURITY DEFINER, executable by service_role only: the gateway calls them as
-- the service role and signs the access token itself (the JWT secret never
-- reaches the database). Refusals raise P0001 with the auth service's error code
-- as the message and what to do as the hint.

-- The user as GoTrue answers it.
create or replace function auth.gateway_user_json(p_user uuid) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_strip_nulls(jsonb_build_object(
      'new_email', u.email_change,
      'email_change_sent_at', u.email_change_sent_at,
      'invited_at', u.invited_at,
      'confirmation_sent_at', u.confirmation_sent_at,
      'recovery_sent_at', u.recovery_sent_at,
      'banned_until', u.banned_until,
      'factors', auth.gateway_factors_json(u.id))) || jsonb_build_object(
      'id', u.id,
      'aud', 'authenticated',
      'role', 'authenticated',
      'email', coalesce(u.email, ''),
      'phone', coalesce(u.phone, ''),
      'email_confirmed_at', u.email_confirmed_at,
      'confirmed_at', u.email_confirmed_at,
      'last_sign_in_at', (select max(s.created_at) from auth.refresh_sessions s where s.user_id = u.id),
      'app_metadata', u.raw_app_meta_data || case
        when ids.providers is not null then jsonb_build_object('provider', ids.providers -> 0, 'providers', ids.providers)
        when u.is_anonymous and u.email is null then '{}'::jsonb
        else jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email')) end,
      'user_metadata', u.raw_user_meta_data,
      'identities', auth.gateway_identities_json(u.id),
      'created_at', u.created_at,
      'updated_at', greatest(u.updated_at, p.updated_at, u.created_at),
      'is_anonymous', u.is_anonymous)
    from auth.users u
    left join auth.password_hashes p on p.user_id = u.id
    -- The providers in the order they were linked: the first is the account's own.
    left join lateral (
      select jsonb_agg(f.provider order by f.first) as providers
      from (select i.provider, min(i.created_at) as first from auth.identities i
            where i.user_id = u.id group by i.provider) f) ids on true
    where u.id = p_user
  $$;

-- SHA-256 of a refresh token, as stored.
create or replace function auth.gateway_token_hash(p_token text) returns text
  language sql immutable
  set search_path = ''
  as $$ select encode(public.digest(convert_to(p_token, 'UTF8'), 'sha256'), 'hex') $$;

-- Whether an account may get a session: not deleted, not banned, its address confirmed.
create or replace function auth.gateway_check_may_sign_in(p_user uuid) returns void
  language plpgsql stable
  set search_path = ''
  as $$
declare
  u auth.users;
begin
  select * into u from auth.users where id = p_user;
  if u.id is null or u.deleted_at is not null then
    perform auth.gateway_refuse('user_not_found', 'User not found');
  end if;
  if u.banned_until is not null and u.banned_until > now() then
    perform auth.gateway_refuse('user_banned', 'User is banned');
  end if;
  if u.email is not null and u.email_confirmed_at is null and not u.is_anonymous then
    perform auth.gateway_refuse('email_not_confirmed', 'Email not confirmed');
  end if;
end
$$;

-- A new session for a user and its first refresh token (returned once, stored hashed).
-- A new refresh token of a session (the child of `p_parent`, when one is used up for it):
-- returned once, stored hashed.
create or replace function auth.gateway_issue_refresh_token(p_session uuid, p_parent text) returns text
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_token text := translate(encode(public.gen_random_bytes(24), 'base64'), '+/=', '-_');
begin
  insert into auth.refresh_token_hashes (token_hash, session_id, parent_hash)
  values (auth.gateway_token_hash(v_token), p_session, p_parent);
  return v_token;
end
$$;

create or replace function auth.gateway_start_session(p_user uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_session uuid;
  v_token text;
begin
  perform auth.gateway_check_may_sign_in(p_user);
  perform auth.gateway_sync_email_identity(p_user);
  insert into auth.refresh_sessions (user_id) values (p_user) returning id into v_session;
  v_token := auth.gateway_issue_refresh_token(v_session, null);
  return jsonb_build_object('user', auth.gateway_user_json(p_user), 'session_id', v_session, 'refresh_token', v_token);
end
$$;

create or replace function auth.gateway_refuse(p_code text, p_hint text) returns void
  language plpgsql
  set search_path = ''
  as $$
begin
  raise exception using errcode = 'P0001', message = p_code, hint = p_hint;
end
$$;

-- A password the platform takes: 6 characters at least, 72 bytes at most (bcrypt reads no further).
create or replace function auth.gateway_check_password(p_password text) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_password is null or char_length(p_password) < 6 then
    perform auth.gateway_refuse('weak_password', 'Password should be at least 6 characters.');
  end if;
  if octet_length(p_password) > 72 then
    perform auth.gateway_refuse('weak_password', 'Password cannot be longer than 72 bytes.');
  end if;
end
$$;

-- User metadata as the requests carry it: absent, or a JSON object.
create or replace function auth.gateway_check_metadata(p_data jsonb) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_data is not null and jsonb_typeof(p_data) <> 'object' then
    perform auth.gateway_refuse('validation_failed', 'data must be a JSON object of user metadata.');
  end if;
end
$$;

-- The checks of an email + password sign-up, before anything is written: the address
-- (lower-cased) when they pass.
create or replace function auth.gateway_check_sign_up(p_email text, p_password text, p_data jsonb) returns text
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
begin
  perform auth.gateway_check_password(p_password);
  perform auth.gateway_check_metadata(p_data);
  return v_email;
end
$$;

-- Email + password sign-up with the address taken as confirmed (mailer_autoconfirm):
-- the user (profile by the usual trigger when the metadata names a username), its
-- password hash and a first session.
create or replace function auth.gateway_sign_up(p_email text, p_password text, p_data jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_sign_up(p_email, p_password, p_data);
  v_user uuid;
begin
  if exists (select 1 from auth.users where lower(email) = v_email) then
    perform auth.gateway_refuse('user_already_exists', 'User already registered');
  end if;
  insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values (v_email, coalesce(p_data, '{}'::jsonb), now())
  returning id into v_user;
  insert into auth.password_hashes (user_id, hash) values (v_user, public.crypt(p_password, public.gen_salt('bf', 10)));
  return auth.gateway_start_session(v_user);
end
$$;

-- Sign-up when addresses must be confirmed: the account, unconfirmed, and the
-- confirmation to mail; no session until the code or link comes back. An address
-- already confirmed answers a user of the same shape that exists nowhere and mails
-- nothing, as the platform does, so sign-up does not tell which addresses have
-- accounts; one still unconfirmed gets its confirmation again.
create or replace function auth.gateway_sign_up_unconfirmed(p_email text, p_password text, p_data jsonb, p_challenge text,
                                                            p_method text, p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_sign_up(p_email, p_password, p_data);
  u auth.users;
begin
  perform auth.gateway_check_challenge(p_challenge, p_method);
  select * into u from auth.users where lower(email) = v_email;
  if u.id is not null and (u.email_confirmed_at is not null or u.deleted_at is not null) then
    return jsonb_build_object('user', jsonb_build_object(
      'id', gen_random_uuid(), 'aud', 'authenticated', 'role', 'authenticated', 'email', v_email, 'phone', '',
      'confirmation_sent_at', now(), 'app_metadata', jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email')),
      'user_metadata', coalesce(p_data, '{}'::jsonb), 'identities', '[]'::jsonb, 'created_at', now(), 'updated_at', now(),
      'is_anonymous', false));
  end if;
  if u.id is null then
    insert into auth.users (email, raw_user_meta_data) values (v_email, coalesce(p_data, '{}'::jsonb)) returning * into u;
    perform auth.gateway_sync_email_identity(u.id);
  end if;
  insert into auth.password_hashes (user_id, hash) values (u.id, public.crypt(p_password, public.gen_salt('bf', 10)))
  on conflict (user_id) do update set hash = excluded.hash, updated_at = now();
  return jsonb_build_object('mail', auth.gateway_issue_code(u.id, 'confirmation', v_email, p_challenge, p_method,
                                                            p_interval, p_lifetime),
                            'user', auth.gateway_user_json(u.id));
end
$$;

-- grant_type=password. An unknown email costs the same bcrypt as a wrong password,
-- so the answer's timing does not tell which accounts exist.
create or replace function auth.gateway_password_grant(p_email text, p_password text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_user uuid;
  v_hash text;
begin
  select u.id, p.hash into v_user, v_hash
  from auth.users u join auth.password_hashes p on p.user_id = u.id
  where lower(u.email) = lower(btrim(coalesce(p_email, ''))) and u.deleted_at is null;
  if v_hash is null then
    perform public.crypt(coalesce(p_password, ''), '$2a$10$7EqJtq98hPqEX7fNZaFWoOhi5BWX4Z5Y4hWZ4L6u6gy1t6Ygk4l6a');
    perform auth.gateway_refuse('invalid_credentials', 'Invalid login credentials');
  end if;
  if public.crypt(coalesce(p_password, ''), v_hash) <> v_hash then
    perform auth.gateway_refuse('invalid_credentials', 'Invalid login credentials');
  end if;
  return auth.gateway_start_session(v_user);
end
$$;

-- Rotates a refresh token. A used token presented again revokes its whole session
-- (it leaked), as does any token of a revoked session. A session an OAuth client
-- got (`p_client`) is refreshed by that client only, at /oauth/token; the app's own
-- sessions only at /token (`p_client` null).
create or replace function auth.gateway_rotate_refresh_token(p_token text, p_client uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_hash text := auth.gateway_token_hash(coalesce(p_token, ''));
  t auth.refresh_token_hashes;
  s auth.refresh_sessions;
  v_token text;
begin
  select * into t from auth.refresh_token_hashes where token_hash = v_hash for update;
  if not found then
    perform auth.gateway_refuse('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  end if;
  select * into s from auth.refresh_sessions where id = t.session_id for update;
  if s.oauth_client_id is distinct from p_client then
    perform auth.gateway_refuse(case when p_client is null then 'refresh_token_not_found' else 'invalid_grant' end,
      case when p_client is null then 'Invalid Refresh Token: an OAuth client''s token is refreshed at /oauth/token'
           else 'The refresh token is not one this client was given' end);
  end if;
  if s.revoked_at is not null then
    perform auth.gateway_refuse('session_not_found', 'Invalid Refresh Token: the session was signed out or revoked');
  end if;
  if t.used_at is not null then
    -- Commit the revocation, then refuse: the refusal is an answer, not an error to roll back.
    update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'refresh token reused' where id = s.id;
    return jsonb_build_object('error', 'refresh_token_already_used',
      'hint', 'Invalid Refresh Token: Already Used. The session was revoked; sign in again.');
  end if;
  perform auth.gateway_check_may_sign_in(s.user_id);
  update auth.refresh_token_hashes set used_at = now() where token_hash = v_hash;
  v_token := auth.gateway_issue_refresh_token(s.id, v_hash);
  update auth.refresh_sessions set refreshed_at = now() where id = s.id;
  return jsonb_build_object('user', auth.gateway_user_json(s.user_id), 'session_id', s.id, 'refresh_token', v_token,
                            'aal', s.aal, 'amr', s.amr, 'client_id', s.oauth_client_id, 'scope', s.oauth_scope);
end
$$;

-- grant_type=refresh_token at /token.
create or replace function auth.gateway_refresh_grant(p_token text) returns jsonb
  language sql volatile security definer
  set search_path = ''
  as $$ select auth.gateway_rotate_refresh_token(p_token, null) $$;

-- Sign-out: this session (local), every session of the user (global), or all but this one (others).
create or replace function auth.gateway_sign_out(p_user uuid, p_session uuid, p_scope text) returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_count integer;
begin
  if p_scope not in ('local', 'global', 'others') then
    perform auth.gateway_refuse('validation_failed', 'scope must be local, global or others');
  end if;
  update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'signed out (' || p_scope || ')'
  where user_id = p_user and revoked_at is null
    and case p_scope when 'local' then id = p_session
                     when 'others' then id is distinct from p_session
                     else true end;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;

-- Whether a session may still be used (for realtime, which checks on every token it is given).
create or replace function auth.gateway_session_active(p_session uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$ select exists (select 1 from auth.refresh_sessions where id = p_session and revoked_at is null) $$;

revoke all on function auth.gateway_user_json(uuid), auth.gateway_token_hash(text), auth.gateway_start_session(uuid),
  auth.gateway_refuse(text, text), auth.gateway_sign_up(text, text, jsonb), auth.gateway_password_grant(text, text),
  auth.gateway_refresh_grant(text), auth.gateway_rotate_refresh_token(text, uuid), auth.gateway_sign_out(uuid, uuid, text),
  auth.gateway_session_active(uuid), auth.gateway_check_may_sign_in(uuid), auth.gateway_check_sign_up(text, text, jsonb),
  auth.gateway_check_password(text), auth.gateway_check_metadata(jsonb),
  auth.gateway_issue_refresh_token(uuid, text),
  auth.gateway_sign_up_unconfirmed(text, text, jsonb, text, text, integer, integer)
  from public, anon, authenticated;
grant execute on function auth.gateway_user_json(uuid), auth.gateway_sign_up(text, text, jsonb),
  auth.gateway_sign_up_unconfirmed(text, text, jsonb, text, text, integer, integer),
  auth.gateway_password_grant(text, text), auth.gateway_refresh_grant(text), auth.gateway_sign_out(uuid, uuid, text),
  auth.gateway_session_active(uuid)
  to service_role;
