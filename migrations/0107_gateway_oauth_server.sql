-- /auth/v1 as an OAuth 2.1 authorization server: third-party applications
-- registered by the operator (or by themselves, when dynamic registration is on)
-- send a user to /oauth/authorize; the user consents on the site's page; the
-- application trades the code (PKCE S256 always) for a session of its own.

-- A registered application. Its secret is never stored, only its SHA-256; a
-- public client (a native or browser app) has none and authenticates by PKCE alone.
create table if not exists auth.oauth_clients (
  id uuid primary key default gen_random_uuid(),
  client_name text not null check (length(client_name) between 1 and 1024),
  client_secret_hash text check (client_secret_hash ~ '^[0-9a-f]{64}$'),
  client_type text not null check (client_type in ('public', 'confidential')),
  token_endpoint_auth_method text not null
    check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_post')),
  registration_type text not null check (registration_type in ('dynamic', 'manual')),
  redirect_uris text[] not null check (cardinality(redirect_uris) between 1 and 20),
  grant_types text[] not null check (grant_types <@ array['authorization_code', 'refresh_token'] and cardinality(grant_types) >= 1),
  response_types text[] not null default array['code'] check (response_types = array['code']),
  client_uri text check (length(client_uri) <= 2048),
  logo_uri text check (length(logo_uri) <= 2048),
  scope text check (length(scope) <= 1024),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  check ((client_type = 'public') = (token_endpoint_auth_method = 'none')),
  check ((client_type = 'public') = (client_secret_hash is null))
);

-- One request to /oauth/authorize, from its start to the code's exchange: bound to
-- the user who opened the consent page, approved or denied once, its code (stored
-- hashed) exchanged once. A code presented a second time ends the session it bought.
create table if not exists auth.oauth_authorizations (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.oauth_clients (id) on delete cascade,
  user_id uuid references auth.users (id) on delete cascade,
  redirect_uri text not null,
  scope text not null,
  state text check (length(state) <= 2048),
  code_challenge text not null check (code_challenge ~ '^[A-Za-z0-9._~-]{43,128}$'),
  status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
  auth_code_hash text unique check (auth_code_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  decided_at timestamptz,
  code_used_at timestamptz,
  session_id uuid references auth.refresh_sessions (id) on delete set null,
  check ((status = 'approved') = (auth_code_hash is not null))
);
create index if not exists oauth_authorizations_client on auth.oauth_authorizations (client_id);
create index if not exists oauth_authorizations_user on auth.oauth_authorizations (user_id);

-- What a user has allowed an application: a later request for no more than these
-- scopes skips the consent page. Revoking ends the application's sessions.
create table if not exists auth.oauth_consents (
  user_id uuid not null references auth.users (id) on delete cascade,
  client_id uuid not null references auth.oauth_clients (id) on delete cascade,
  scopes text[] not null,
  granted_at timestamptz not null default now(),
  revoked_at timestamptz,
  primary key (user_id, client_id)
);
create index if not exists oauth_consents_client on auth.oauth_consents (client_id);

-- A session an application got through the authorization server, and the scope it was granted.
alter table auth.refresh_sessions
  add column if not exists oauth_client_id uuid references auth.oauth_clients (id) on delete cascade,
  add column if not exists oauth_scope text;
create index if not exists refresh_sessions_oauth_client on auth.refresh_sessions (oauth_client_id)
  where oauth_client_id is not null and revoked_at is null;

alter table auth.oauth_clients enable row level security;
alter table auth.oauth_authorizations enable row level security;
alter table auth.oauth_consents enable row level security;
revoke all on auth.oauth_clients, auth.oauth_authorizations, auth.oauth_consents from anon, authenticated;
grant all on auth.oauth_clients, auth.oauth_authorizations, auth.oauth_consents to service_role;
