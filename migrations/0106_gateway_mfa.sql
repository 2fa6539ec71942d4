-- TOTP second factors of /auth/v1: each account's enrolled authenticator apps
-- and the challenges they answer, under the hosted platform's names (created
-- only where missing), and the assurance level each session has reached.

create table if not exists auth.mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text check (length(friendly_name) <= 100),
  factor_type text not null default 'totp' check (factor_type = 'totp'),
  status text not null default 'unverified' check (status in ('unverified', 'verified')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The shared secret, base32 as authenticator apps take it: it must be readable to check codes.
  secret text not null check (secret ~ '^[A-Z2-7]{32}$'),
  last_challenged_at timestamptz
);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (user_id, friendly_name)
  where friendly_name is not null and friendly_name <> '';

create table if not exists auth.mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);
create index if not exists mfa_challenges_factor_id_idx on auth.mfa_challenges (factor_id);

-- A code is good for one 30-second step: the last step a factor accepted, so it cannot be replayed.
alter table auth.mfa_factors add column if not exists last_verified_step bigint;

-- The assurance level a session reached (aal2 once a factor was verified in it) and
-- the methods that got it there, for the access token's aal and amr.
alter table auth.refresh_sessions
  add column if not exists aal text not null default 'aal1' check (aal in ('aal1', 'aal2')),
  add column if not exists amr jsonb not null default '[]'::jsonb check (jsonb_typeof(amr) = 'array');

alter table auth.mfa_factors enable row level security;
alter table auth.mfa_challenges enable row level security;
revoke all on auth.mfa_factors, auth.mfa_challenges from anon, authenticated;
grant all on auth.mfa_factors, auth.mfa_challenges to service_role;
