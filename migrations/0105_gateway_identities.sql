-- How each account signs in: its email address, and the Apple or Google account
-- linked to it (the provider's subject). The table carries the hosted platform's
-- name and columns, so it is created only where it is missing.

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null check (length(provider_id) between 1 and 255),
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null default '{}'::jsonb check (jsonb_typeof(identity_data) = 'object'),
  provider text not null check (provider ~ '^[a-z_]{1,40}$'),
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

alter table auth.identities enable row level security;
revoke all on auth.identities from anon, authenticated;
grant all on auth.identities to service_role;

-- Every account with an address signs in by email: its email identity, as the platform keeps one.
insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email,
                          'email_verified', u.email_confirmed_at is not null, 'phone_verified', false),
       'email', u.created_at, coalesce(u.updated_at, u.created_at)
from auth.users u
where u.email is not null
on conflict (provider_id, provider) do nothing;
