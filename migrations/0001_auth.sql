-- The hosted platform's auth contract on plain PostgreSQL.
--
-- On the hosted platform every object below already exists; each creation is
-- guarded so this file runs unchanged there and on a bare server.

-- Roles the API gateway switches to. NOLOGIN: they are only ever reached through
-- SET ROLE by a connection that holds them.
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

-- The connecting role must be able to SET ROLE to each of them.
do $$
begin
  execute format('grant anon, authenticated, service_role to %I', current_user);
end
$$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create extension if not exists pgcrypto;

create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text,
  phone text,
  created_at timestamptz not null default now(),
  raw_user_meta_data jsonb not null default '{}'::jsonb
);

create unique index if not exists users_email_key on auth.users (lower(email)) where email is not null;
create unique index if not exists users_phone_key on auth.users (phone) where phone is not null;

-- Nobody but the service role reads accounts directly; apps go through RPCs.
alter table auth.users enable row level security;
revoke all on auth.users from anon, authenticated;
grant all on auth.users to service_role;

-- auth.uid(), auth.role(), auth.jwt(): read the claims the gateway set for this
-- transaction, preferring request.jwt.claims and falling back to the older
-- per-claim settings, exactly as the hosted platform's own definitions do.
do $$
begin
  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
      as $fn$
        select coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        )::uuid
      $fn$;
  end if;
  if to_regprocedure('auth.role()') is null then
    create function auth.role() returns text
      language sql stable
      as $fn$
        select coalesce(
          nullif(current_setting('request.jwt.claim.role', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
        )::text
      $fn$;
  end if;
  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
      language sql stable
      as $fn$
        select coalesce(
          nullif(current_setting('request.jwt.claim', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')
        )::jsonb
      $fn$;
  end if;
end
$$;

grant execute on function auth.uid(), auth.role(), auth.jwt() to anon, authenticated, service_role;

-- Default privileges for what later migrations create.
--
-- PostgreSQL lets PUBLIC execute every new function. An RPC must be granted to
-- the roles allowed to call it, so take that default away; tables already start
-- readable by nobody but their owner, and service_role gets everything so the
-- worker can act as the backend.
alter default privileges revoke execute on functions from public;
alter default privileges grant all on tables to service_role;
alter default privileges grant all on sequences to service_role;
alter default privileges grant execute on functions to service_role;
grant usage on schema public to anon, authenticated, service_role;
