-- The gateway's own auth state (summit serve, /auth/v1): password hashes,
-- sessions and refresh tokens. Kept beside auth.users under names the hosted
-- platform does not use, so these creations are no-ops nowhere and clash with
-- nothing. Passwords are bcrypt hashes (pgcrypto); refresh tokens are stored as
-- SHA-256 hashes only, so a copy of the database cannot be replayed as sessions.

create table if not exists auth.password_hashes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  hash text not null check (hash like '$2%'),
  updated_at timestamptz not null default now()
);

-- One signed-in device: every refresh token of one sign-in belongs to it.
create table if not exists auth.refresh_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  refreshed_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text
);
create index if not exists refresh_sessions_user on auth.refresh_sessions (user_id) where revoked_at is null;

-- Each token is used once: refreshing marks it used and issues its child. A used
-- token presented again means it leaked, and its whole session is revoked.
create table if not exists auth.refresh_token_hashes (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  session_id uuid not null references auth.refresh_sessions (id) on delete cascade,
  parent_hash text,
  created_at timestamptz not null default now(),
  used_at timestamptz
);
create index if not exists refresh_token_hashes_session on auth.refresh_token_hashes (session_id);

alter table auth.password_hashes enable row level security;
alter table auth.refresh_sessions enable row level security;
alter table auth.refresh_token_hashes enable row level security;
revoke all on auth.password_hashes, auth.refresh_sessions, auth.refresh_token_hashes from anon, authenticated;
grant all on auth.password_hashes, auth.refresh_sessions, auth.refresh_token_hashes to service_role;
