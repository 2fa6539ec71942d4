-- The account flows of /auth/v1 beyond passwords: confirmation, recovery, magic
-- links and email codes, email change, reauthentication, PKCE, anonymous users,
-- soft deletion and rate limits. The columns carry the hosted platform's names
-- on auth.users, so each is added only where it is missing.

do $$
declare
  v_new_confirmation boolean := not exists (
    select 1 from information_schema.columns
    where table_schema = 'auth' and table_name = 'users' and column_name = 'email_confirmed_at');
begin
  alter table auth.users
    add column if not exists email_confirmed_at timestamptz,
    add column if not exists invited_at timestamptz,
    add column if not exists confirmation_sent_at timestamptz,
    add column if not exists recovery_sent_at timestamptz,
    add column if not exists email_change text,
    add column if not exists email_change_sent_at timestamptz,
    add column if not exists raw_app_meta_data jsonb not null default '{}'::jsonb,
    add column if not exists is_anonymous boolean not null default false,
    add column if not exists banned_until timestamptz,
    add column if not exists deleted_at timestamptz,
    add column if not exists updated_at timestamptz;
  -- Accounts made before confirmation existed were confirmed at sign-up.
  if v_new_confirmation then
    update auth.users set email_confirmed_at = created_at where email is not null;
  end if;
end
$$;

-- One code sent by mail: its six digits are never stored, only the hash the
-- platform uses for them (SHA-224 of address and code, hex), which is also the
-- token a link carries. Each is used once, before it expires; a newer code of
-- the same purpose for the same account supersedes the older.
create table if not exists auth.one_time_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  purpose text not null check (purpose in ('confirmation', 'invite', 'magiclink', 'recovery', 'email_change', 'reauthentication')),
  email text not null,
  token_hash text not null check (token_hash ~ '^[0-9a-f]{56}$'),
  code_challenge text,
  code_challenge_method text check (code_challenge_method in ('s256', 'plain')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  check ((code_challenge is null) = (code_challenge_method is null))
);
create index if not exists one_time_codes_hash on auth.one_time_codes (token_hash) where used_at is null;
create index if not exists one_time_codes_user on auth.one_time_codes (user_id, purpose) where used_at is null;

-- A PKCE sign-in waiting for its exchange: the auth code (stored hashed) is
-- handed to the app's redirect, and only the holder of the verifier can turn
-- it into a session, once, within a few minutes.
create table if not exists auth.pkce_flows (
  auth_code_hash text primary key check (auth_code_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references auth.users (id) on delete cascade,
  code_challenge text not null,
  code_challenge_method text not null check (code_challenge_method in ('s256', 'plain')),
  authentication_method text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz
);
create index if not exists pkce_flows_user on auth.pkce_flows (user_id);

-- Fixed-window counters shared by every `summit serve` of one database.
create table if not exists auth.rate_limit_windows (
  key text primary key check (length(key) <= 400),
  window_started_at timestamptz not null,
  hits integer not null
);

alter table auth.one_time_codes enable row level security;
alter table auth.pkce_flows enable row level security;
alter table auth.rate_limit_windows enable row level security;
revoke all on auth.one_time_codes, auth.pkce_flows, auth.rate_limit_windows from anon, authenticated;
grant all on auth.one_time_codes, auth.pkce_flows, auth.rate_limit_windows to service_role;
