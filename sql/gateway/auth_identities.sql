-- The identities of /auth/v1: the email identity every account with an address
-- has, and the Apple and Google accounts signed in with `grant_type=id_token`.
-- The gateway verifies the provider's token (signature against the provider's
-- key set, issuer, audience, expiry, nonce); these functions find, link or make
-- the account. Executable by service_role only, as the rest of auth.

-- Keeps the account's email identity in step with its address and confirmation.
create or replace function auth.gateway_sync_email_identity(p_user uuid) returns void
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  u auth.users;
begin
  select * into u from auth.users where id = p_user;
  if u.email is null then
    delete from auth.identities where user_id = p_user and provider = 'email';
    return;
  end if;
  insert into auth.identities (provider_id, user_id, identity_data, provider)
  values (u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email,
          'email_verified', u.email_confirmed_at is not null, 'phone_verified', false), 'email')
  on conflict (provider_id, provider) do update set identity_data = excluded.identity_data, updated_at = now()
  where auth.identities.identity_data is distinct from excluded.identity_data;
end
$$;

-- The identities as the platform lists them on a user.
create or replace function auth.gateway_identities_json(p_user uuid) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select coalesce(jsonb_agg(jsonb_build_object(
      'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
      'provider', i.provider, 'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
      'updated_at', i.updated_at, 'email', i.email) order by i.created_at, i.provider), '[]'::jsonb)
    from auth.identities i where i.user_id = p_user
  $$;

-- grant_type=id_token, after the gateway verified the provider's token: the account
-- of the provider's subject; else the account of the same address, when the provider
-- vouches for it (linked, and the provider is added to it); else a new account,
-- when sign-ups are allowed.
-- A password set on an address nobody confirmed is dropped on linking: whoever set
-- it never proved the address, the provider's user has.
create or replace function auth.gateway_id_token_grant(p_provider text, p_subject text, p_email text,
                                                       p_email_verified boolean, p_data jsonb,
                                                       p_may_create boolean default true) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_user uuid;
  v_identity uuid;
  v_data jsonb;
  u auth.users;
begin
  if p_provider is null or p_provider not in ('apple', 'google') then
    perform auth.gateway_refuse('provider_disabled', 'Provider must be apple or google');
  end if;
  if coalesce(p_subject, '') = '' or length(p_subject) > 255 then
    perform auth.gateway_refuse('bad_jwt', 'The ID token has no subject (sub)');
  end if;
  if p_data is null or jsonb_typeof(p_data) <> 'object' then
    perform auth.gateway_refuse('validation_failed', 'The identity data must be a JSON object');
  end if;
  v_data := p_data || jsonb_build_object('sub', p_subject, 'provider_id', p_subject,
                                         'email', v_email, 'email_verified', coalesce(p_email_verified, false));
  select i.id, i.user_id into v_identity, v_user
  from auth.identities i where i.provider = p_provider and i.provider_id = p_subject;
  if v_user is null and v_email is not null and p_email_verified then
    -- A deleted account keeps its address: signing in to it is refused as for a password.
    select * into u from auth.users where lower(email) = v_email;
    v_user := u.id;
    if v_user is not null and u.email_confirmed_at is null then
      delete from auth.password_hashes where user_id = v_user;
      update auth.users set email_confirmed_at = now(), updated_at = now() where id = v_user;
    end if;
  end if;
  if v_user is null and not p_may_create then
    perform auth.gateway_refuse('signup_disabled', 'Signups not allowed for this instance');
  end if;
  if v_user is null then
    -- An address the provider does not vouch for stays on the identity, not the account.
    insert into auth.users (email, email_confirmed_at, raw_user_meta_data, raw_app_meta_data)
    values (case when p_email_verified then v_email end, case when p_email_verified and v_email is not null then now() end,
            v_data, jsonb_build_object('provider', p_provider, 'providers', jsonb_build_array(p_provider)))
    returning id into v_user;
  end if;
  if v_identity is null then
    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
    values (p_subject, v_user, v_data, p_provider, now());
  else
    update auth.identities set identity_data = v_data, last_sign_in_at = now(), updated_at = now()
    where id = v_identity;
  end if;
  return auth.gateway_start_session(v_user) || jsonb_build_object('method', 'oauth', 'provider', p_provider);
end
$$;

revoke all on function auth.gateway_sync_email_identity(uuid), auth.gateway_identities_json(uuid),
  auth.gateway_id_token_grant(text, text, text, boolean, jsonb, boolean) from public;
grant execute on function auth.gateway_id_token_grant(text, text, text, boolean, jsonb, boolean) to service_role;
