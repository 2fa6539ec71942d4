-- TOTP second factors of /auth/v1 (RFC 6238: HMAC-SHA-1, 30-second steps, six
-- digits), as the hosted platform's MFA API: enroll, challenge, verify,
-- unenroll, and the factors on the user. Verifying raises the session to aal2;
-- while an account has a verified factor, enrolling another or removing a
-- verified one needs aal2. Executable by service_role only, as the rest of auth.

create or replace function auth.gateway_base32(p_bytes bytea) returns text
  language plpgsql immutable strict
  set search_path = ''
  as $$
declare
  v_alphabet constant text := 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  v_value integer := 0;
  v_bits integer := 0;
  v_out text := '';
begin
  for i in 0 .. length(p_bytes) - 1 loop
    v_value := (v_value << 8) | get_byte(p_bytes, i);
    v_bits := v_bits + 8;
    while v_bits >= 5 loop
      v_out := v_out || substr(v_alphabet, ((v_value >> (v_bits - 5)) & 31) + 1, 1);
      v_bits := v_bits - 5;
    end loop;
    v_value := v_value & ((1 << v_bits) - 1);
  end loop;
  if v_bits > 0 then
    v_out := v_out || substr(v_alphabet, ((v_value << (5 - v_bits)) & 31) + 1, 1);
  end if;
  return v_out;
end
$$;

create or replace function auth.gateway_base32_decode(p_text text) returns bytea
  language plpgsql immutable strict
  set search_path = ''
  as $$
declare
  v_alphabet constant text := 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  v_value integer := 0;
  v_bits integer := 0;
  v_index integer;
  v_out bytea := ''::bytea;
begin
  for i in 1 .. length(p_text) loop
    v_index := strpos(v_alphabet, substr(p_text, i, 1)) - 1;
    if v_index < 0 then
      raise exception 'not base32: %', p_text;
    end if;
    v_value := (v_value << 5) | v_index;
    v_bits := v_bits + 5;
    if v_bits >= 8 then
      v_out := v_out || set_byte('\x00'::bytea, 0, (v_value >> (v_bits - 8)) & 255);
      v_bits := v_bits - 8;
      v_value := v_value & ((1 << v_bits) - 1);
    end if;
  end loop;
  return v_out;
end
$$;

-- The six-digit code of one time step (RFC 6238 with RFC 4226's dynamic truncation).
create or replace function auth.gateway_totp(p_key bytea, p_step bigint) returns text
  language sql immutable strict
  set search_path = ''
  as $$
    select lpad(((((get_byte(x.h, y.o) & 127)::bigint << 24) | (get_byte(x.h, y.o + 1) << 16)
                  | (get_byte(x.h, y.o + 2) << 8) | get_byte(x.h, y.o + 3)) % 1000000)::text, 6, '0')
    from (select public.hmac(int8send(p_step), p_key, 'sha1') as h) x
    cross join lateral (select get_byte(x.h, 19) & 15 as o) y
  $$;

-- The factors as the platform lists them on a user (never the secret).
create or replace function auth.gateway_factors_json(p_user uuid) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select jsonb_agg(jsonb_build_object('id', f.id, 'friendly_name', coalesce(f.friendly_name, ''),
             'factor_type', f.factor_type, 'status', f.status, 'created_at', f.created_at,
             'updated_at', f.updated_at) order by f.created_at)
    from auth.mfa_factors f where f.user_id = p_user
  $$;

-- The caller's session, still on, or the platform's refusal.
create or replace function auth.gateway_mfa_session(p_user uuid, p_session uuid) returns auth.refresh_sessions
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  s auth.refresh_sessions;
begin
  select * into s from auth.refresh_sessions
  where id = p_session and user_id = p_user and revoked_at is null for update;
  if s.id is null then
    perform auth.gateway_refuse('session_not_found', 'Session from session_id claim in JWT does not exist');
  end if;
  return s;
end
$$;

-- The caller's factor, or not found (another account's factor is not found either).
create or replace function auth.gateway_mfa_factor(p_user uuid, p_factor uuid) returns auth.mfa_factors
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  f auth.mfa_factors;
begin
  select * into f from auth.mfa_factors where id = p_factor and user_id = p_user for update;
  if f.id is null then
    perform auth.gateway_refuse('mfa_factor_not_found', 'Factor not found');
  end if;
  return f;
end
$$;

-- POST /factors: a new, unverified TOTP factor and its secret, shown once to the app.
create or replace function auth.gateway_mfa_enroll(p_user uuid, p_session uuid, p_friendly_name text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  s auth.refresh_sessions := auth.gateway_mfa_session(p_user, p_session);
  v_name text := nullif(btrim(coalesce(p_friendly_name, '')), '');
  f auth.mfa_factors;
begin
  if exists (select 1 from auth.mfa_factors where user_id = p_user and status = 'verified') and s.aal <> 'aal2' then
    perform auth.gateway_refuse('insufficient_aal', 'AAL2 required to enroll a new factor');
  end if;
  if length(v_name) > 100 then
    perform auth.gateway_refuse('validation_failed', 'friendly_name must be at most 100 characters');
  end if;
  if v_name is not null and exists (select 1 from auth.mfa_factors where user_id = p_user and friendly_name = v_name) then
    perform auth.gateway_refuse('mfa_factor_name_conflict',
      format('A factor with the friendly name "%s" for this user already exists', v_name));
  end if;
  if (select count(*) from auth.mfa_factors where user_id = p_user) >= 10 then
    perform auth.gateway_refuse('too_many_enrolled_mfa_factors', 'Maximum number of enrolled factors reached, unenroll to continue');
  end if;
  insert into auth.mfa_factors (user_id, friendly_name, secret)
  values (p_user, v_name, auth.gateway_base32(public.gen_random_bytes(20)))
  returning * into f;
  return jsonb_build_object('id', f.id, 'type', 'totp', 'friendly_name', coalesce(f.friendly_name, ''), 'secret', f.secret,
                            'email', (select email from auth.users where id = p_user));
end
$$;

-- POST /factors/{id}/challenge: a challenge that lives five minutes.
create or replace function auth.gateway_mfa_challenge(p_user uuid, p_session uuid, p_factor uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  f auth.mfa_factors;
  c auth.mfa_challenges;
begin
  perform auth.gateway_mfa_session(p_user, p_session);
  f := auth.gateway_mfa_factor(p_user, p_factor);
  insert into auth.mfa_challenges (factor_id) values (f.id) returning * into c;
  update auth.mfa_factors set last_challenged_at = now() where id = f.id;
  return jsonb_build_object('id', c.id, 'type', 'totp',
                            'expires_at', floor(extract(epoch from c.created_at + interval '5 minutes'))::bigint);
end
$$;

-- POST /factors/{id}/verify: the challenge answered with the code of this step or
-- the one either side (the phone's clock may be off), a step never accepted before.
-- The factor is verified, the session raised to aal2 and given a new refresh token.
create or replace function auth.gateway_mfa_verify(p_user uuid, p_session uuid, p_factor uuid, p_challenge uuid,
                                                   p_code text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  s auth.refresh_sessions := auth.gateway_mfa_session(p_user, p_session);
  f auth.mfa_factors := auth.gateway_mfa_factor(p_user, p_factor);
  c auth.mfa_challenges;
  v_now bigint := floor(extract(epoch from now()) / 30)::bigint;
  v_step bigint;
  v_amr jsonb;
begin
  select * into c from auth.mfa_challenges where id = p_challenge and factor_id = f.id for update;
  if c.id is null then
    perform auth.gateway_refuse('mfa_factor_not_found', 'Challenge not found for this factor');
  end if;
  if c.verified_at is not null or c.created_at < now() - interval '5 minutes' then
    perform auth.gateway_refuse('mfa_challenge_expired',
      'MFA challenge has expired, verify against another challenge or create a new challenge.');
  end if;
  if coalesce(p_code, '') !~ '^[0-9]{6}$' then
    perform auth.gateway_refuse('mfa_verification_failed', 'Invalid TOTP code entered');
  end if;
  select step into v_step from unnest(array[v_now, v_now - 1, v_now + 1]) as step
  where auth.gateway_totp(auth.gateway_base32_decode(f.secret), step) = p_code
    and step > coalesce(f.last_verified_step, -1)
  limit 1;
  if v_step is null then
    perform auth.gateway_refuse('mfa_verification_failed', 'Invalid TOTP code entered');
  end if;
  update auth.mfa_challenges set verified_at = now() where id = c.id;
  update auth.mfa_factors set status = 'verified', last_verified_step = v_step, updated_at = now() where id = f.id;
  v_amr := jsonb_build_array(jsonb_build_object('method', 'totp', 'timestamp', floor(extract(epoch from now()))::bigint))
           || (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(s.amr) e where e ->> 'method' <> 'totp');
  update auth.refresh_sessions set aal = 'aal2', amr = v_amr, refreshed_at = now() where id = s.id;
  return jsonb_build_object('user', auth.gateway_user_json(p_user), 'session_id', s.id,
                            'refresh_token', auth.gateway_issue_refresh_token(s.id, null),
                            'aal', 'aal2', 'amr', v_amr);
end
$$;

-- DELETE /factors/{id}: an unverified factor goes at once; a verified one needs aal2.
create or replace function auth.gateway_mfa_unenroll(p_user uuid, p_session uuid, p_factor uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  s auth.refresh_sessions := auth.gateway_mfa_session(p_user, p_session);
  f auth.mfa_factors := auth.gateway_mfa_factor(p_user, p_factor);
begin
  if f.status = 'verified' and s.aal <> 'aal2' then
    perform auth.gateway_refuse('insufficient_aal', 'AAL2 required to unenroll verified factor');
  end if;
  delete from auth.mfa_factors where id = f.id;
  return jsonb_build_object('id', f.id);
end
$$;

-- GET /admin/users/{id}/factors and DELETE /admin/users/{id}/factors/{factor}: the admin API's view.
create or replace function auth.gateway_admin_list_factors(p_user uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  if not exists (select 1 from auth.users where id = p_user) then
    perform auth.gateway_refuse('user_not_found', 'User not found');
  end if;
  return coalesce(auth.gateway_factors_json(p_user), '[]'::jsonb);
end
$$;

create or replace function auth.gateway_admin_delete_factor(p_user uuid, p_factor uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  f auth.mfa_factors := auth.gateway_mfa_factor(p_user, p_factor);
begin
  delete from auth.mfa_factors where id = f.id;
  return jsonb_build_object('id', f.id);
end
$$;

revoke all on function auth.gateway_admin_list_factors(uuid), auth.gateway_admin_delete_factor(uuid, uuid) from public;
grant execute on function auth.gateway_admin_list_factors(uuid), auth.gateway_admin_delete_factor(uuid, uuid) to service_role;

revoke all on function auth.gateway_base32(bytea), auth.gateway_base32_decode(text), auth.gateway_totp(bytea, bigint),
  auth.gateway_factors_json(uuid), auth.gateway_mfa_session(uuid, uuid), auth.gateway_mfa_factor(uuid, uuid),
  auth.gateway_mfa_enroll(uuid, uuid, text), auth.gateway_mfa_challenge(uuid, uuid, uuid),
  auth.gateway_mfa_verify(uuid, uuid, uuid, uuid, text), auth.gateway_mfa_unenroll(uuid, uuid, uuid) from public;
grant execute on function auth.gateway_mfa_enroll(uuid, uuid, text), auth.gateway_mfa_challenge(uuid, uuid, uuid),
  auth.gateway_mfa_verify(uuid, uuid, uuid, uuid, text), auth.gateway_mfa_unenroll(uuid, uuid, uuid) to service_role;
