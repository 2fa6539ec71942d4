-- /auth/v1's account flows beyond passwords: codes sent by mail (confirmation,
-- invitation, magic link, recovery, email change, reauthentication) and their
-- verification, PKCE exchanges, user updates, anonymous sign-up, the session
-- check of /user, rate-limit windows, and the admin API. As in auth.sql: SECURITY
-- DEFINER, executable by service_role only, refusals as P0001 with the auth
-- service's error code as message. The gateway sends the mail (it holds the SMTP
-- settings); a function that makes a code answers it under "mail" once, and
-- only its hash is kept.

-- The hash of a six-digit code the platform uses, which is also a link's token.
create or replace function auth.gateway_code_hash(p_email text, p_code text) returns text
  language sql immutable
  set search_path = ''
  as $$ select encode(public.digest(convert_to(lower(p_email) || p_code, 'UTF8'), 'sha224'), 'hex') $$;

-- The account of an address, or null.
create or replace function auth.gateway_user_by_email(p_email text) returns auth.users
  language sql stable
  set search_path = ''
  as $$ select * from auth.users where lower(email) = lower(btrim(coalesce(p_email, ''))) and deleted_at is null $$;

create or replace function auth.gateway_check_email(p_email text) returns text
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
begin
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or length(v_email) > 255 then
    perform auth.gateway_refuse('validation_failed', 'Unable to validate email address: invalid format');
  end if;
  return v_email;
end
$$;

create or replace function auth.gateway_check_challenge(p_challenge text, p_method text) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_challenge is null and p_method is null then
    return;
  end if;
  if p_challenge is null or lower(coalesce(p_method, '')) not in ('s256', 'plain') then
    perform auth.gateway_refuse('validation_failed',
      'PKCE flow requires code_challenge and code_challenge_method (s256 or plain)');
  end if;
  if p_challenge !~ '^[A-Za-z0-9._~-]{43,128}$' then
    perform auth.gateway_refuse('validation_failed',
      'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)');
  end if;
end
$$;

-- A new six-digit code for `p_user`, to be sent to `p_email`. Refuses when the
-- last code of that purpose went out less than `p_interval` seconds ago (the
-- platform's resend interval); supersedes earlier ones.
create or replace function auth.gateway_issue_code(p_user uuid, p_purpose text, p_email text, p_challenge text,
                                                   p_method text, p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_last timestamptz;
  v_code text := lpad(((('x' || encode(public.gen_random_bytes(4), 'hex'))::bit(32)::bigint) % 1000000)::text, 6, '0');
  v_hash text := auth.gateway_code_hash(p_email, v_code);
begin
  perform auth.gateway_check_challenge(p_challenge, p_method);
  select max(created_at) into v_last from auth.one_time_codes where user_id = p_user and purpose = p_purpose;
  if v_last is not null and v_last > now() - make_interval(secs => p_interval) then
    perform auth.gateway_refuse('over_email_send_rate_limit', format(
      'For security purposes, you can only request this after %s seconds.',
      ceil(extract(epoch from v_last + make_interval(secs => p_interval) - now()))::int));
  end if;
  update auth.one_time_codes set used_at = now()
  where user_id = p_user and purpose = p_purpose and used_at is null;
  insert into auth.one_time_codes (user_id, purpose, email, token_hash, code_challenge, code_challenge_method, expires_at)
  values (p_user, p_purpose, lower(p_email), v_hash, p_challenge, lower(p_method), now() + make_interval(secs => p_lifetime));
  update auth.users set
    confirmation_sent_at = case when p_purpose = 'confirmation' then now() else confirmation_sent_at end,
    recovery_sent_at = case when p_purpose in ('recovery', 'magiclink') then now() else recovery_sent_at end,
    email_change_sent_at = case when p_purpose = 'email_change' then now() else email_change_sent_at end,
    invited_at = case when p_purpose = 'invite' then coalesce(invited_at, now()) else invited_at end
  where id = p_user;
  return jsonb_build_object('purpose', p_purpose, 'email', lower(p_email), 'code', v_code, 'token_hash', v_hash);
end
$$;

-- The user of an access token, if its session is still on (/user, PUT /user, /reauthenticate).
create or replace function auth.gateway_current_user(p_user uuid, p_session uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  if p_session is not null and not exists (
      select 1 from auth.refresh_sessions where id = p_session and user_id = p_user and revoked_at is null) then
    perform auth.gateway_refuse('session_not_found', 'Session from session_id claim in JWT does not exist');
  end if;
  if not exists (select 1 from auth.users where id = p_user and deleted_at is null) then
    perform auth.gateway_refuse('user_not_found', 'User from sub claim in JWT does not exist');
  end if;
  return auth.gateway_user_json(p_user);
end
$$;

-- Anonymous sign-up (the gateway refuses it unless the setting allows it).
create or replace function auth.gateway_sign_up_anonymous(p_data jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_user uuid;
begin
  perform auth.gateway_check_metadata(p_data);
  insert into auth.users (raw_user_meta_data, is_anonymous) values (coalesce(p_data, '{}'::jsonb), true)
  returning id into v_user;
  return auth.gateway_start_session(v_user) || jsonb_build_object('method', 'anonymous');
end
$$;

-- POST /recover: a recovery code for a known address; nothing (and no sign of it) for an unknown one.
create or replace function auth.gateway_recover(p_email text, p_challenge text, p_method text,
                                                p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
  u auth.users := auth.gateway_user_by_email(v_email);
begin
  perform auth.gateway_check_challenge(p_challenge, p_method);
  if u.id is null then
    return jsonb_build_object();
  end if;
  return jsonb_build_object('mail', auth.gateway_issue_code(u.id, 'recovery', v_email, p_challenge, p_method, p_interval, p_lifetime));
end
$$;

-- POST /otp (email): a magic link and code for a known address; for a new one, an
-- unconfirmed account and its confirmation, unless `p_create_user` is false.
create or replace function auth.gateway_otp(p_email text, p_create_user boolean, p_data jsonb, p_challenge text,
                                            p_method text, p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
  u auth.users := auth.gateway_user_by_email(v_email);
begin
  perform auth.gateway_check_challenge(p_challenge, p_method);
  perform auth.gateway_check_metadata(p_data);
  if u.id is null then
    if not coalesce(p_create_user, true) then
      perform auth.gateway_refuse('otp_disabled', 'Signups not allowed for otp');
    end if;
    insert into auth.users (email, raw_user_meta_data) values (v_email, coalesce(p_data, '{}'::jsonb)) returning * into u;
  end if;
  return jsonb_build_object('mail', auth.gateway_issue_code(u.id,
    case when u.email_confirmed_at is null then 'confirmation' else 'magiclink' end,
    v_email, p_challenge, p_method, p_interval, p_lifetime));
end
$$;

-- POST /resend: the confirmation of an unconfirmed sign-up, or the pending email change's code.
create or replace function auth.gateway_resend(p_type text, p_email text, p_challenge text, p_method text,
                                               p_interval integer, p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := auth.gateway_check_email(p_email);
  u auth.users;
begin
  if p_type = 'signup' then
    u := auth.gateway_user_by_email(v_email);
    if u.id is null or u.email_confirmed_at is not null then
      return jsonb_build_object();
    end if;
    return jsonb_build_object('mail', auth.gateway_issue_code(u.id, 'confirmation', v_email, p_challenge, p_method, p_interval, p_lifetime));
  elsif p_type = 'email_change' then
    select * into u from auth.users where lower(email_change) = v_email and deleted_at is null;
    if u.id is null then
      return jsonb_build_object();
    end if;
    return jsonb_build_object('mail', auth.gateway_issue_code(u.id, 'email_change', v_email, p_challenge, p_method, p_interval, p_lifetime));
  end if;
  perform auth.gateway_refuse('validation_failed', 'Missing one of these types: signup, email_change');
  return null;
end
$$;

-- POST or GET /verify: a code (with the address) or a link's token hash, of a
-- type; used once. Answers a session, or, for a link (`p_link`) whose request
-- began a PKCE flow, the auth code to hand to the app's redirect.
create or replace function auth.gateway_verify(p_type text, p_email text, p_code text, p_token_hash text,
                                               p_link boolean) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_purposes text[] := case p_type
    when 'signup' then array['confirmation']
    when 'invite' then array['invite']
    when 'magiclink' then array['magiclink']
    when 'email' then array['confirmation', 'magiclink', 'invite']
    when 'recovery' then array['recovery']
    when 'email_change' then array['email_change']
    end;
  v_hash text;
  c auth.one_time_codes;
  v_auth_code text;
begin
  if v_purposes is null then
    perform auth.gateway_refuse('validation_failed',
      'Verify requires a verification type: signup, invite, magiclink, email, recovery or email_change');
  end if;
  if nullif(p_token_hash, '') is not null then
    v_hash := lower(p_token_hash);
  elsif nullif(p_code, '') is not null and nullif(p_email, '') is not null then
    v_hash := auth.gateway_code_hash(btrim(p_email), btrim(p_code));
  else
    perform auth.gateway_refuse('validation_failed', 'Verify requires either a token with an email, or a token_hash');
  end if;
  select * into c from auth.one_time_codes
  where token_hash = v_hash and used_at is null and purpose = any (v_purposes)
  order by created_at desc limit 1 for update;
  if c.id is null or c.expires_at <= now() then
    perform auth.gateway_refuse('otp_expired', 'Token has expired or is invalid');
  end if;
  if exists (select 1 from auth.users where id = c.user_id and deleted_at is not null) then
    perform auth.gateway_refuse('otp_expired', 'Token has expired or is invalid');
  end if;
  update auth.one_time_codes set used_at = now() where user_id = c.user_id and purpose = c.purpose and used_at is null;
  if c.purpose = 'email_change' then
    if exists (select 1 from auth.users where lower(email) = c.email and id <> c.user_id) then
      perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
    end if;
    update auth.users set email = c.email, email_change = null, email_confirmed_at = now(), updated_at = now()
    where id = c.user_id;
  else
    -- Receiving the mail proves the address, whatever the code was for.
    update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = c.user_id;
  end if;
  if c.code_challenge is not null and p_link then
    v_auth_code := gen_random_uuid()::text;
    insert into auth.pkce_flows (auth_code_hash, user_id, code_challenge, code_challenge_method, authentication_method)
    values (auth.gateway_token_hash(v_auth_code), c.user_id, c.code_challenge, c.code_challenge_method, c.purpose);
    return jsonb_build_object('auth_code', v_auth_code, 'type', p_type, 'user', auth.gateway_user_json(c.user_id));
  end if;
  return auth.gateway_start_session(c.user_id) || jsonb_build_object('method', c.purpose, 'type', p_type);
end
$$;

-- grant_type=pkce: the auth code and the verifier whose challenge it was issued for; once, within five minutes.
create or replace function auth.gateway_pkce_grant(p_auth_code text, p_verifier text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  f auth.pkce_flows;
  v_challenge text;
begin
  if coalesce(p_auth_code, '') = '' or coalesce(p_verifier, '') = '' then
    perform auth.gateway_refuse('validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
  end if;
  select * into f from auth.pkce_flows where auth_code_hash = auth.gateway_token_hash(p_auth_code) for update;
  if f.user_id is null or f.used_at is not null then
    perform auth.gateway_refuse('flow_state_not_found', 'invalid flow state, no valid flow state found');
  end if;
  if f.created_at <= now() - interval '5 minutes' then
    perform auth.gateway_refuse('flow_state_expired', 'Flow state has expired; start the sign-in again');
  end if;
  v_challenge := case f.code_challenge_method
    when 's256' then rtrim(translate(encode(public.digest(convert_to(p_verifier, 'UTF8'), 'sha256'), 'base64'), '+/', '-_'), '=')
    else p_verifier end;
  if v_challenge <> f.code_challenge then
    perform auth.gateway_refuse('bad_code_verifier', 'code challenge does not match previously saved code verifier');
  end if;
  update auth.pkce_flows set used_at = now() where auth_code_hash = f.auth_code_hash;
  return auth.gateway_start_session(f.user_id) || jsonb_build_object('method', f.authentication_method);
end
$$;

-- PUT /user: metadata merged (a null value removes its key), a new password (with
-- the reauthentication code when `p_reauthenticate` (the setting) is on and the
-- session is a day old), a new address (confirmed by a code sent to it before it takes effect).
create or replace function auth.gateway_update_user(p_user uuid, p_session uuid, p_email text, p_password text,
                                                    p_data jsonb, p_nonce text, p_reauthenticate boolean,
                                                    p_challenge text, p_method text, p_interval integer,
                                                    p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  u auth.users;
  v_hash text;
  v_email text;
  v_code auth.one_time_codes;
  v_mail jsonb;
begin
  perform auth.gateway_current_user(p_user, p_session);
  select * into u from auth.users where id = p_user for update;
  perform auth.gateway_check_metadata(p_data);
  if p_password is not null then
    perform auth.gateway_check_password(p_password);
    select hash into v_hash from auth.password_hashes where user_id = p_user;
    if v_hash is not null and public.crypt(p_password, v_hash) = v_hash then
      perform auth.gateway_refuse('same_password', 'New password should be different from the old password.');
    end if;
    -- As the platform: with the setting on, a session over a day old (or none) must prove itself again.
    if p_reauthenticate and coalesce((select created_at > now() - interval '24 hours' from auth.refresh_sessions
                                      where id = p_session), false) is false then
      if coalesce(p_nonce, '') = '' then
        perform auth.gateway_refuse('reauthentication_needed', 'Password update requires reauthentication: call GET /reauthenticate and send the code it mails as nonce');
      end if;
      select * into v_code from auth.one_time_codes
      where user_id = p_user and purpose = 'reauthentication' and used_at is null
        and token_hash = auth.gateway_code_hash(u.email, btrim(p_nonce)) for update;
      if v_code.id is null or v_code.expires_at <= now() then
        perform auth.gateway_refuse('reauthentication_not_valid', 'Requires a valid reauthentication code: call GET /reauthenticate for a new one');
      end if;
      update auth.one_time_codes set used_at = now() where id = v_code.id;
    end if;
  end if;
  if p_email is not null then
    v_email := auth.gateway_check_email(p_email);
    if v_email is distinct from lower(u.email) then
      if exists (select 1 from auth.users where lower(email) = v_email and id <> p_user) then
        perform auth.gateway_refuse('email_exists', 'A user with this email address has already been registered');
      end if;
    end if;
  end if;
  -- Checked everything: now write.
  if p_password is not null then
    insert into auth.password_hashes (user_id, hash) values (p_user, public.crypt(p_password, public.gen_salt('bf', 10)))
    on conflict (user_id) do update set hash = excluded.hash, updated_at = now();
  end if;
  if p_data is not null then
    update auth.users set raw_user_meta_data = jsonb_strip_nulls(raw_user_meta_data || p_data), updated_at = now()
    where id = p_user;
  end if;
  if v_email is not null and v_email is distinct from lower(u.email) then
    update auth.users set email_change = v_email, updated_at = now() where id = p_user;
    v_mail := auth.gateway_issue_code(p_user, 'email_change', v_email, p_challenge, p_method, p_interval, p_lifetime);
  end if;
  update auth.users set updated_at = now() where id = p_user;
  return jsonb_build_object('user', auth.gateway_user_json(p_user)) || coalesce(jsonb_build_object('mail', v_mail), '{}');
end
$$;

-- GET /reauthenticate: a code to the account's address, for a password change.
create or replace function auth.gateway_reauthenticate(p_user uuid, p_session uuid, p_interval integer,
                                                       p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  u auth.users;
begin
  perform auth.gateway_current_user(p_user, p_session);
  select * into u from auth.users where id = p_user;
  if u.email is null then
    perform auth.gateway_refuse('validation_failed', 'Reauthentication requires the account to have an email address');
  end if;
  return jsonb_build_object('mail', auth.gateway_issue_code(p_user, 'reauthentication', u.email, null, null, p_interval, p_lifetime));
end
$$;

-- One hit on a fixed window (`p_hit`), or only a look at it: the seconds until
-- the window ends when it is full, else 0.
create or replace function auth.gateway_rate_limit(p_key text, p_limit integer, p_window integer, p_hit boolean) returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  w auth.rate_limit_windows;
begin
  if p_hit then
    insert into auth.rate_limit_windows as r (key, window_started_at, hits) values (p_key, now(), 1)
    on conflict (key) do update set
      window_started_at = case when r.window_started_at <= now() - make_interval(secs => p_window) then now() else r.window_started_at end,
      hits = case when r.window_started_at <= now() - make_interval(secs => p_window) then 1 else r.hits + 1 end
    returning * into w;
    if random() < 0.01 then
      delete from auth.rate_limit_windows where window_started_at < now() - interval '1 day';
    end if;
    if w.hits <= p_limit then
      return 0;
    end if;
  else
    select * into w from auth.rate_limit_windows where key = p_key;
    if w.key is null or w.hits < p_limit or w.window_started_at <= now() - make_interval(secs => p_window) then
      return 0;
    end if;
  end if;
  return greatest(1, ceil(extract(epoch from w.window_started_at + make_interval(secs => p_window) - now()))::int);
end
$$;

revoke all on function auth.gateway_code_hash(text, text), auth.gateway_user_by_email(text), auth.gateway_check_email(text),
  auth.gateway_check_challenge(text, text),
  auth.gateway_issue_code(uuid, text, text, text, text, integer, integer), auth.gateway_current_user(uuid, uuid),
  auth.gateway_sign_up_anonymous(jsonb), auth.gateway_recover(text, text, text, integer, integer),
  auth.gateway_otp(text, boolean, jsonb, text, text, integer, integer),
  auth.gateway_resend(text, text, text, text, integer, integer), auth.gateway_verify(text, text, text, text, boolean),
  auth.gateway_pkce_grant(text, text),
  auth.gateway_update_user(uuid, uuid, text, text, jsonb, text, boolean, text, text, integer, integer),
  auth.gateway_reauthenticate(uuid, uuid, integer, integer), auth.gateway_rate_limit(text, integer, integer, boolean)
  from public, anon, authenticated;
grant execute on function auth.gateway_current_user(uuid, uuid), auth.gateway_sign_up_anonymous(jsonb),
  auth.gateway_recover(text, text, text, integer, integer), auth.gateway_otp(text, boolean, jsonb, text, text, integer, integer),
  auth.gateway_resend(text, text, text, text, integer, integer), auth.gateway_verify(text, text, text, text, boolean),
  auth.gateway_pkce_grant(text, text),
  auth.gateway_update_user(uuid, uuid, text, text, jsonb, text, boolean, text, text, integer, integer),
  auth.gateway_reauthenticate(uuid, uuid, integer, integer), auth.gateway_rate_limit(text, integer, integer, boolean)
  to service_role;
