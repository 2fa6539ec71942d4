-- The hosted platform's storage tables, emulated. Guarded like the auth shim,
-- so on the hosted platform this is a no-op. The worker serves
-- GET/PUT/DELETE /storage/v1/object/{bucket}/{name} by selecting, inserting
-- or deleting rows here as the caller, so these policies decide access.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text,
  public boolean not null default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz not null default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text not null references storage.buckets (id),
  name text not null,
  owner uuid,
  metadata jsonb,
  content bytea,
  external_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (bucket_id, name),
  check (content is not null or external_key is not null)
);

do $$
begin
  if to_regprocedure('storage.foldername(text)') is null then
    create function storage.foldername(name text) returns text[]
      language sql immutable
      as $fn$ select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1] $fn$;
    grant execute on function storage.foldername(text) to anon, authenticated, service_role;
  end if;
end
$$;

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant select on storage.buckets to anon, authenticated;
grant select, insert, update, delete on storage.objects to authenticated;
grant all on storage.buckets, storage.objects to service_role;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('photos', 'photos', false, 10485760, array['image/webp']),
  ('avatars', 'avatars', false, 2097152, array['image/webp'])
on conflict (id) do nothing;

create index if not exists objects_owner on storage.objects (owner);
