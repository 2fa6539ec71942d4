-- /auth/v1 as an OAuth 2.1 authorization server (migration 0107): the service
-- role's client registry (/admin/oauth/clients), the authorization request, the
-- user's consent, and the token endpoint's code and refresh grants. The gateway
-- lets only the service role reach these; the user and the client each are
-- checked here, by id and by secret hash.

-- The scopes this server grants: what the access token's claims may show of the user.
create or replace function auth.gateway_oauth_supported_scopes() returns text[]
  language sql immutable
  set search_path = ''
  as $$ select array['openid', 'email', 'profile', 'phone'] $$;

-- A space-separated scope as its distinct tokens, each one this server grants.
create or replace function auth.gateway_oauth_scopes(p_scope text, p_code text) returns text[]
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_scopes text[] := array(select distinct s from unnest(regexp_split_to_array(btrim(coalesce(p_scope, '')), '\s+')) s
                           where s <> '' order by 1);
  v_unknown text;
begin
  select s into v_unknown from unnest(v_scopes) s where s <> all (auth.gateway_oauth_supported_scopes()) limit 1;
  if v_unknown is not null then
    perform auth.gateway_refuse(p_code, format('The scope %s is not one this server grants; scopes are %s',
      left(v_unknown, 64), array_to_string(auth.gateway_oauth_supported_scopes(), ', ')));
  end if;
  return v_scopes;
end
$$;

-- A redirect URI an application may register (RFC 9700, RFC 8252): https, http only
-- to this machine's loopback, or an app's private-use scheme (powdermeet://); no
-- fragment, and none of the schemes a browser would run.
create or replace function auth.gateway_oauth_check_redirect_uri(p_uri text) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_scheme text := lower(substring(p_uri from '^([A-Za-z][A-Za-z0-9+.-]*):'));
begin
  if p_uri is null or length(p_uri) > 2048 or v_scheme is null or p_uri ~ '[\s#]' then
    perform auth.gateway_refuse('validation_failed', format(
      'redirect_uris: %s is not an absolute URI without spaces or a fragment (https://app.example.com/callback)',
      coalesce(left(p_uri, 200), 'null')));
  end if;
  if v_scheme in ('javascript', 'data', 'file', 'vbscript', 'blob', 'about') then
    perform auth.gateway_refuse('validation_failed', format('redirect_uris: the %s scheme cannot receive a code', v_scheme));
  end if;
  if v_scheme = 'http' and auth.gateway_oauth_loopback(p_uri) is null then
    perform auth.gateway_refuse('validation_failed', format(
      'redirect_uris: %s is plain http to another machine; use https, or http only to localhost or 127.0.0.1', left(p_uri, 200)));
  end if;
  if v_scheme = 'https' and p_uri !~* '^https://[^/?:]+(:[0-9]{1,5})?([/?]|$)' then
    perform auth.gateway_refuse('validation_failed', format('redirect_uris: %s has no host', left(p_uri, 200)));
  end if;
end
$$;

-- A loopback redirect URI without its port (RFC 8252 §7.3: a native app listens on
-- whatever port it is given), or null for any other URI.
create or replace function auth.gateway_oauth_loopback(p_uri text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select case when p_uri ~* '^http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?([/?]|$)'
                then regexp_replace(p_uri, '^(http://(localhost|127\.0\.0\.1|\[::1\]))(:[0-9]{1,5})?', '\1', 'i') end
  $$;

-- Whether a redirect URI is one the client registered: exactly, or on the loopback at any port.
create or replace function auth.gateway_oauth_redirect_matches(p_registered text[], p_uri text) returns boolean
  language sql immutable
  set search_path = ''
  as $$
    select coalesce(p_uri = any (p_registered)
      or auth.gateway_oauth_loopback(p_uri) = any (array(select auth.gateway_oauth_loopback(r) from unnest(p_registered) r)), false)
  $$;

-- Client attributes as the admin API and registration take them (nulls are absent):
-- client_name, redirect_uris, grant_types, response_types, client_uri, logo_uri,
-- scope, and when creating, token_endpoint_auth_method or client_type. Checked
-- before anything is written.
create or replace function auth.gateway_oauth_check_client(p_attrs jsonb, p_creating boolean) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_uri text;
  v_method text := p_attrs ->> 'token_endpoint_auth_method';
  v_type text := p_attrs ->> 'client_type';
begin
  if p_attrs is null or jsonb_typeof(p_attrs) <> 'object' then
    perform auth.gateway_refuse('validation_failed', 'The body must be a JSON object of client attributes');
  end if;
  if p_creating and not (p_attrs ? 'client_name' and p_attrs ? 'redirect_uris') then
    perform auth.gateway_refuse('validation_failed', 'A client needs a client_name and at least one of redirect_uris');
  end if;
  if p_attrs ? 'client_name' and (jsonb_typeof(p_attrs -> 'client_name') <> 'string'
      or length(btrim(p_attrs ->> 'client_name')) not between 1 and 1024) then
    perform auth.gateway_refuse('validation_failed', 'client_name must be a name of 1 to 1024 characters');
  end if;
  if p_attrs ? 'redirect_uris' then
    if jsonb_typeof(p_attrs -> 'redirect_uris') <> 'array' or jsonb_array_length(p_attrs -> 'redirect_uris') not between 1 and 20
        or exists (select 1 from jsonb_array_elements(p_attrs -> 'redirect_uris') e where jsonb_typeof(e) <> 'string') then
      perform auth.gateway_refuse('validation_failed', 'redirect_uris must be a list of 1 to 20 URIs');
    end if;
    for v_uri in select jsonb_array_elements_text(p_attrs -> 'redirect_uris') loop
      perform auth.gateway_oauth_check_redirect_uri(v_uri);
    end loop;
  end if;
  if p_attrs ? 'grant_types' and (jsonb_typeof(p_attrs -> 'grant_types') <> 'array'
      or not (p_attrs -> 'grant_types') <@ '["authorization_code", "refresh_token"]'::jsonb
      or not (p_attrs -> 'grant_types') @> '["authorization_code"]'::jsonb) then
    perform auth.gateway_refuse('validation_failed',
      'grant_types must list authorization_code, and may add refresh_token; no other grant is served');
  end if;
  if p_attrs ? 'response_types' and (p_attrs -> 'response_types') is distinct from '["code"]'::jsonb then
    perform auth.gateway_refuse('validation_failed', 'response_types must be ["code"]: the only response type of OAuth 2.1');
  end if;
  if (p_attrs ? 'client_uri' and (coalesce(p_attrs ->> 'client_uri', '') !~* '^https?://\S+$' or length(p_attrs ->> 'client_uri') > 2048))
      or (p_attrs ? 'logo_uri' and (coalesce(p_attrs ->> 'logo_uri', '') !~* '^https?://\S+$' or length(p_attrs ->> 'logo_uri') > 2048)) then
    perform auth.gateway_refuse('validation_failed', 'client_uri and logo_uri must be http or https URLs');
  end if;
  if p_attrs ? 'scope' then
    if jsonb_typeof(p_attrs -> 'scope') <> 'string' then
      perform auth.gateway_refuse('validation_failed', 'scope must be a space-separated string such as "openid email"');
    end if;
    perform auth.gateway_oauth_scopes(p_attrs ->> 'scope', 'validation_failed');
  end if;
  if not p_creating and (p_attrs ? 'token_endpoint_auth_method' or p_attrs ? 'client_type') then
    perform auth.gateway_refuse('validation_failed',
      'A client''s type and token_endpoint_auth_method are fixed when it is made; make a new client to change them');
  end if;
  if v_method is not null and v_method not in ('none', 'client_secret_basic', 'client_secret_post') then
    perform auth.gateway_refuse('validation_failed', 'token_endpoint_auth_method must be none, client_secret_basic or client_secret_post');
  end if;
  if v_type is not null and v_type not in ('public', 'confidential') then
    perform auth.gateway_refuse('validation_failed', 'client_type must be public or confidential');
  end if;
  if v_type is not null and v_method is not null and (v_type = 'public') <> (v_method = 'none') then
    perform auth.gateway_refuse('validation_failed',
      'A public client authenticates with token_endpoint_auth_method none, a confidential one with a secret');
  end if;
end
$$;

-- A client in the platform's shape; its secret only when it was just made.
create or replace function auth.gateway_oauth_client_json(c auth.oauth_clients, p_secret text) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select jsonb_strip_nulls(jsonb_build_object(
      'client_id', c.id, 'client_name', c.client_name, 'client_secret', p_secret, 'client_type', c.client_type,
      'token_endpoint_auth_method', c.token_endpoint_auth_method, 'registration_type', c.registration_type,
      'client_uri', c.client_uri, 'logo_uri', c.logo_uri, 'scope', c.scope,
      'created_at', c.created_at, 'updated_at', c.updated_at))
      || jsonb_build_object('redirect_uris', to_jsonb(c.redirect_uris), 'grant_types', to_jsonb(c.grant_types),
                            'response_types', to_jsonb(c.response_types))
  $$;

create or replace function auth.gateway_oauth_new_secret() returns text
  language sql volatile
  set search_path = ''
  as $$ select rtrim(translate(encode(public.gen_random_bytes(32), 'base64'), '+/', '-_'), '=') $$;

-- A live client by id, or the refusal the admin API answers 404 with.
create or replace function auth.gateway_oauth_client(p_client uuid) returns auth.oauth_clients
  language plpgsql stable
  set search_path = ''
  as $$
declare
  c auth.oauth_clients;
begin
  select * into c from auth.oauth_clients where id = p_client and deleted_at is null;
  if c.id is null then
    perform auth.gateway_refuse('oauth_client_not_found', 'OAuth client not found');
  end if;
  return c;
end
$$;

-- POST /admin/oauth/clients (manual) and /oauth/clients/register (dynamic): a
-- confidential client unless it asks for token_endpoint_auth_method none.
create or replace function auth.gateway_oauth_create_client(p_attrs jsonb, p_registration text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_attrs jsonb := jsonb_strip_nulls(coalesce(p_attrs, 'null'::jsonb));
  v_method text;
  v_secret text;
  c auth.oauth_clients;
begin
  perform auth.gateway_oauth_check_client(v_attrs, true);
  v_method := coalesce(v_attrs ->> 'token_endpoint_auth_method',
                       case v_attrs ->> 'client_type' when 'public' then 'none' else 'client_secret_basic' end);
  if v_method <> 'none' then
    v_secret := auth.gateway_oauth_new_secret();
  end if;
  insert into auth.oauth_clients (client_name, client_secret_hash, client_type, token_endpoint_auth_method,
                                  registration_type, redirect_uris, grant_types, client_uri, logo_uri, scope)
  values (btrim(v_attrs ->> 'client_name'), auth.gateway_token_hash(v_secret),
          case v_method when 'none' then 'public' else 'confidential' end, v_method, p_registration,
          array(select jsonb_array_elements_text(v_attrs -> 'redirect_uris')),
          case when v_attrs ? 'grant_types' then array(select jsonb_array_elements_text(v_attrs -> 'grant_types'))
               else array['authorization_code', 'refresh_token'] end,
          v_attrs ->> 'client_uri', v_attrs ->> 'logo_uri',
          nullif(array_to_string(auth.gateway_oauth_scopes(v_attrs ->> 'scope', 'validation_failed'), ' '), ''))
  returning * into c;
  return auth.gateway_oauth_client_json(c, v_secret);
end
$$;

-- A page of clients, newest first, and how many there are.
create or replace function auth.gateway_oauth_list_clients(p_page integer, p_per_page integer) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select jsonb_build_object(
      'clients', coalesce((select jsonb_agg(auth.gateway_oauth_client_json(c, null) order by c.created_at desc, c.id desc)
                           from (select * from auth.oauth_clients where deleted_at is null
                                 order by created_at desc, id desc
                                 limit p_per_page offset (p_page - 1)::bigint * p_per_page) c), '[]'::jsonb),
      'total', (select count(*) from auth.oauth_clients where deleted_at is null))
  $$;

create or replace function auth.gateway_oauth_get_client(p_client uuid) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$ select auth.gateway_oauth_client_json(auth.gateway_oauth_client(p_client), null) $$;

create or replace function auth.gateway_oauth_update_client(p_client uuid, p_attrs jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_attrs jsonb := jsonb_strip_nulls(coalesce(p_attrs, 'null'::jsonb));
  c auth.oauth_clients := auth.gateway_oauth_client(p_client);
begin
  perform auth.gateway_oauth_check_client(v_attrs, false);
  update auth.oauth_clients set
    client_name = coalesce(btrim(v_attrs ->> 'client_name'), client_name),
    redirect_uris = case when v_attrs ? 'redirect_uris'
      then array(select jsonb_array_elements_text(v_attrs -> 'redirect_uris')) else redirect_uris end,
    grant_types = case when v_attrs ? 'grant_types'
      then array(select jsonb_array_elements_text(v_attrs -> 'grant_types')) else grant_types end,
    client_uri = coalesce(v_attrs ->> 'client_uri', client_uri),
    logo_uri = coalesce(v_attrs ->> 'logo_uri', logo_uri),
    scope = case when v_attrs ? 'scope'
      then nullif(array_to_string(auth.gateway_oauth_scopes(v_attrs ->> 'scope', 'validation_failed'), ' '), '') else scope end,
    updated_at = now()
  where id = c.id
  returning * into c;
  return auth.gateway_oauth_client_json(c, null);
end
$$;

-- Deleting a client ends every session it holds and every request in flight.
create or replace function auth.gateway_oauth_delete_client(p_client uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  c auth.oauth_clients := auth.gateway_oauth_client(p_client);
begin
  update auth.oauth_clients set deleted_at = now(), updated_at = now(), client_secret_hash = null,
    client_type = 'public', token_endpoint_auth_method = 'none'
  where id = c.id;
  update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'oauth client deleted'
  where oauth_client_id = c.id and revoked_at is null;
  delete from auth.oauth_authorizations where client_id = c.id and code_used_at is null;
  delete from auth.oauth_consents where client_id = c.id;
end
$$;

-- A new secret for a confidential client; the old one stops working at once.
create or replace function auth.gateway_oauth_regenerate_secret(p_client uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  c auth.oauth_clients := auth.gateway_oauth_client(p_client);
  v_secret text := auth.gateway_oauth_new_secret();
begin
  if c.client_type = 'public' then
    perform auth.gateway_refuse('validation_failed', 'A public client has no secret to regenerate');
  end if;
  update auth.oauth_clients set client_secret_hash = auth.gateway_token_hash(v_secret), updated_at = now()
  where id = c.id returning * into c;
  return auth.gateway_oauth_client_json(c, v_secret);
end
$$;

-- GET /oauth/authorize: checks the request in the order RFC 6749 §4.1.2.1 needs (a
-- bad client or redirect URI is refused to the browser, never redirected to; what
-- is wrong after that is answered as `error` for the application to hear at its
-- redirect URI), then keeps it for the consent page, for `p_lifetime` seconds.
create or replace function auth.gateway_oauth_authorize(p_client text, p_redirect_uri text, p_response_type text,
                                                        p_scope text, p_state text, p_challenge text, p_method text,
                                                        p_lifetime integer) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  c auth.oauth_clients;
  v_redirect text := p_redirect_uri;
  v_scopes text[];
  v_id uuid;
  v_error text;
  v_description text;
begin
  if coalesce(p_client, '') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
    perform auth.gateway_refuse('oauth_client_not_found', 'client_id is missing or is not a registered client''s id');
  end if;
  select * into c from auth.oauth_clients where id = p_client::uuid and deleted_at is null;
  if c.id is null then
    perform auth.gateway_refuse('oauth_client_not_found', 'client_id is not a registered client''s id');
  end if;
  if v_redirect is null and cardinality(c.redirect_uris) = 1 then
    v_redirect := c.redirect_uris[1];
  end if;
  if v_redirect is null or not auth.gateway_oauth_redirect_matches(c.redirect_uris, v_redirect) then
    perform auth.gateway_refuse('invalid_redirect_uri',
      'redirect_uri must be one of the client''s registered redirect URIs; register it with the client first');
  end if;
  -- From here on the redirect URI is the client's own: refusals are answered for the
  -- gateway to send back to it, with the request's state.
  begin
    if p_response_type is distinct from 'code' then
      perform auth.gateway_refuse('unsupported_response_type', 'response_type must be code');
    end if;
    if p_challenge is null or p_method is distinct from 'S256' then
      perform auth.gateway_refuse('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
    end if;
    if p_challenge !~ '^[A-Za-z0-9._~-]{43,128}$' then
      perform auth.gateway_refuse('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)');
    end if;
    if length(p_state) > 2048 then
      perform auth.gateway_refuse('invalid_request', 'state must be at most 2048 characters');
    end if;
    v_scopes := auth.gateway_oauth_scopes(coalesce(nullif(btrim(p_scope), ''), c.scope, 'email'), 'invalid_scope');
    if c.scope is not null and not v_scopes <@ auth.gateway_oauth_scopes(c.scope, 'invalid_scope') then
      perform auth.gateway_refuse('invalid_scope', format('This client may ask for %s only', c.scope));
    end if;
    insert into auth.oauth_authorizations (client_id, redirect_uri, scope, state, code_challenge, expires_at)
    values (c.id, v_redirect, array_to_string(v_scopes, ' '), p_state, p_challenge,
            now() + make_interval(secs => p_lifetime))
    returning id into v_id;
  exception when sqlstate 'P0001' then
    get stacked diagnostics v_error = message_text, v_description = pg_exception_hint;
    return jsonb_strip_nulls(jsonb_build_object('redirect_uri', v_redirect, 'error', v_error,
                                                'error_description', v_description, 'state', left(p_state, 2048)));
  end;
  return jsonb_build_object('authorization_id', v_id, 'redirect_uri', v_redirect);
end
$$;

-- A pending request for `p_user`, locked: the first user to open it is bound to
-- it; to anyone else, and once expired or decided, it does not exist.
create or replace function auth.gateway_oauth_pending(p_authorization uuid, p_user uuid) returns auth.oauth_authorizations
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  a auth.oauth_authorizations;
begin
  select * into a from auth.oauth_authorizations where id = p_authorization for update;
  if a.id is null or a.status <> 'pending' or a.expires_at <= now() or a.user_id <> p_user
      or not exists (select 1 from auth.oauth_clients where id = a.client_id and deleted_at is null) then
    perform auth.gateway_refuse('oauth_authorization_not_found',
      'Authorization not found: it expired, was decided already, or belongs to another user; start again at the application');
  end if;
  perform auth.gateway_check_may_sign_in(p_user);
  if a.user_id is null then
    update auth.oauth_authorizations set user_id = p_user where id = a.id returning * into a;
  end if;
  return a;
end
$$;

-- Approves or denies: the redirect back to the application, with a one-use code
-- (stored hashed) or access_denied, and its state.
create or replace function auth.gateway_oauth_decide(a auth.oauth_authorizations, p_approve boolean) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_code text := auth.gateway_oauth_new_secret();
begin
  if not p_approve then
    update auth.oauth_authorizations set status = 'denied', decided_at = now() where id = a.id;
    return jsonb_strip_nulls(jsonb_build_object('redirect_uri', a.redirect_uri, 'error', 'access_denied',
      'error_description', 'The user denied the request', 'state', a.state));
  end if;
  update auth.oauth_authorizations set status = 'approved', decided_at = now(), auth_code_hash = auth.gateway_token_hash(v_code)
  where id = a.id;
  insert into auth.oauth_consents (user_id, client_id, scopes)
  values (a.user_id, a.client_id, regexp_split_to_array(a.scope, ' '))
  on conflict (user_id, client_id) do update
    set scopes = case when auth.oauth_consents.revoked_at is null
                      then array(select distinct s from unnest(auth.oauth_consents.scopes || excluded.scopes) s order by 1)
                      else excluded.scopes end,
        granted_at = now(), revoked_at = null;
  return jsonb_strip_nulls(jsonb_build_object('redirect_uri', a.redirect_uri, 'code', v_code, 'state', a.state));
end
$$;

-- GET /oauth/authorizations/{id}: what the consent page shows, or, when the user
-- already allowed this client these scopes, the approval itself (no page).
create or replace function auth.gateway_oauth_authorization(p_authorization uuid, p_user uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  a auth.oauth_authorizations := auth.gateway_oauth_pending(p_authorization, p_user);
  c auth.oauth_clients;
begin
  if exists (select 1 from auth.oauth_consents
             where user_id = p_user and client_id = a.client_id and revoked_at is null
               and regexp_split_to_array(a.scope, ' ') <@ scopes) then
    return auth.gateway_oauth_decide(a, true);
  end if;
  select * into c from auth.oauth_clients where id = a.client_id;
  return jsonb_build_object(
    'authorization_id', a.id, 'redirect_uri', a.redirect_uri, 'scope', a.scope,
    'client', jsonb_build_object('id', c.id, 'name', c.client_name, 'uri', coalesce(c.client_uri, ''),
                                 'logo_uri', coalesce(c.logo_uri, '')),
    'user', (select jsonb_build_object('id', u.id, 'email', coalesce(u.email, '')) from auth.users u where u.id = p_user));
end
$$;

-- POST /oauth/authorizations/{id}/consent.
create or replace function auth.gateway_oauth_consent(p_authorization uuid, p_user uuid, p_action text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  if p_action is null or p_action not in ('approve', 'deny') then
    perform auth.gateway_refuse('validation_failed', 'action must be approve or deny');
  end if;
  return auth.gateway_oauth_decide(auth.gateway_oauth_pending(p_authorization, p_user), p_action = 'approve');
end
$$;

-- The client a token request authenticates as: a confidential client by its
-- secret (compared by hash), a public one by its id alone (its code's PKCE
-- verifier is what proves it).
create or replace function auth.gateway_oauth_authenticate(p_client text, p_secret text, p_grant text) returns auth.oauth_clients
  language plpgsql stable
  set search_path = ''
  as $$
declare
  c auth.oauth_clients;
begin
  if coalesce(p_client, '') ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
    select * into c from auth.oauth_clients where id = p_client::uuid and deleted_at is null;
  end if;
  if c.id is null or (c.client_type = 'confidential'
                      and auth.gateway_token_hash(coalesce(p_secret, '')) is distinct from c.client_secret_hash)
     or (c.client_type = 'public' and p_secret is not null) then
    perform auth.gateway_refuse('invalid_client', 'Client authentication failed: check client_id and client_secret');
  end if;
  if p_grant <> all (c.grant_types) then
    perform auth.gateway_refuse('unauthorized_client', format('This client may not use grant_type=%s', p_grant));
  end if;
  return c;
end
$$;

-- grant_type=authorization_code at /oauth/token: once, within ten minutes of the
-- approval, by the client it was issued to, at the same redirect URI, with the
-- verifier of its challenge. A code presented again ends the session it bought.
create or replace function auth.gateway_oauth_code_grant(p_client text, p_secret text, p_code text, p_redirect_uri text,
                                                         p_verifier text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  c auth.oauth_clients := auth.gateway_oauth_authenticate(p_client, p_secret, 'authorization_code');
  a auth.oauth_authorizations;
  v_grant jsonb;
  v_session uuid;
begin
  select * into a from auth.oauth_authorizations where auth_code_hash = auth.gateway_token_hash(coalesce(p_code, '')) for update;
  if a.id is null or a.client_id <> c.id then
    perform auth.gateway_refuse('invalid_grant', 'The authorization code is not valid for this client');
  end if;
  if a.code_used_at is not null then
    -- Commit the revocation, then refuse: the refusal is an answer, not an error to roll back.
    update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'oauth code reused'
    where id = a.session_id and revoked_at is null;
    return jsonb_build_object('error', 'invalid_grant',
      'hint', 'The authorization code was used already; the session it gave was revoked. Start the authorization again.');
  end if;
  if a.decided_at <= now() - interval '10 minutes' then
    perform auth.gateway_refuse('invalid_grant', 'The authorization code expired (it lives ten minutes); start the authorization again');
  end if;
  if p_redirect_uri is distinct from a.redirect_uri then
    perform auth.gateway_refuse('invalid_grant', 'redirect_uri must be the one the authorization request used');
  end if;
  if coalesce(p_verifier, '') !~ '^[A-Za-z0-9._~-]{43,128}$'
     or rtrim(translate(encode(public.digest(convert_to(p_verifier, 'UTF8'), 'sha256'), 'base64'), '+/', '-_'), '=')
        <> a.code_challenge then
    perform auth.gateway_refuse('invalid_grant', 'code_verifier does not match the code_challenge of the authorization request');
  end if;
  v_grant := auth.gateway_start_session(a.user_id);
  v_session := (v_grant ->> 'session_id')::uuid;
  update auth.refresh_sessions set oauth_client_id = c.id, oauth_scope = a.scope where id = v_session;
  update auth.oauth_authorizations set code_used_at = now(), session_id = v_session where id = a.id;
  if not 'refresh_token' = any (c.grant_types) then
    v_grant := v_grant - 'refresh_token' || jsonb_build_object('refresh_token', '');
  end if;
  return v_grant || jsonb_build_object('method', 'oauth', 'client_id', c.id, 'scope', a.scope);
end
$$;

-- grant_type=refresh_token at /oauth/token: the usual rotation, of the client's own sessions only.
create or replace function auth.gateway_oauth_refresh_grant(p_client text, p_secret text, p_token text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  c auth.oauth_clients := auth.gateway_oauth_authenticate(p_client, p_secret, 'refresh_token');
begin
  return auth.gateway_rotate_refresh_token(p_token, c.id);
end
$$;

revoke all on function auth.gateway_oauth_supported_scopes(), auth.gateway_oauth_scopes(text, text),
  auth.gateway_oauth_check_redirect_uri(text), auth.gateway_oauth_loopback(text), auth.gateway_oauth_redirect_matches(text[], text),
  auth.gateway_oauth_check_client(jsonb, boolean), auth.gateway_oauth_client_json(auth.oauth_clients, text),
  auth.gateway_oauth_new_secret(), auth.gateway_oauth_client(uuid), auth.gateway_oauth_create_client(jsonb, text),
  auth.gateway_oauth_list_clients(integer, integer), auth.gateway_oauth_get_client(uuid),
  auth.gateway_oauth_update_client(uuid, jsonb), auth.gateway_oauth_delete_client(uuid),
  auth.gateway_oauth_regenerate_secret(uuid),
  auth.gateway_oauth_authorize(text, text, text, text, text, text, text, integer),
  auth.gateway_oauth_pending(uuid, uuid), auth.gateway_oauth_decide(auth.oauth_authorizations, boolean),
  auth.gateway_oauth_authorization(uuid, uuid), auth.gateway_oauth_consent(uuid, uuid, text),
  auth.gateway_oauth_authenticate(text, text, text), auth.gateway_oauth_code_grant(text, text, text, text, text),
  auth.gateway_oauth_refresh_grant(text, text, text)
  from public, anon, authenticated;
grant execute on function auth.gateway_oauth_create_client(jsonb, text), auth.gateway_oauth_list_clients(integer, integer),
  auth.gateway_oauth_get_client(uuid), auth.gateway_oauth_update_client(uuid, jsonb), auth.gateway_oauth_delete_client(uuid),
  auth.gateway_oauth_regenerate_secret(uuid), auth.gateway_oauth_authorize(text, text, text, text, text, text, text, integer),
  auth.gateway_oauth_authorization(uuid, uuid), auth.gateway_oauth_consent(uuid, uuid, text),
  auth.gateway_oauth_code_grant(text, text, text, text, text), auth.gateway_oauth_refresh_grant(text, text, text)
  to service_role;
