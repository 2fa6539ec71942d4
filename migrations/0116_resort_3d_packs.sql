-- Each resort's 3D packs (USDZ, a zip), newest first: stored in the private
-- resort-packs bucket at <resort>/<sha256>.usdz by the operator (summit resort
-- pack add), handed to the apps by get-resort-3d-pack as a signed URL plus the
-- SHA-256 they check it against.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('resort-packs', 'resort-packs', false, 524288000, array['model/vnd.usdz+zip'])
on conflict (id) do nothing;

create table mountain.resort_3d_packs (
  resort_id text not null references mountain.resorts (id) on delete cascade,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  byte_count bigint not null check (byte_count > 0),
  storage_name text not null,
  created_at timestamptz not null default now(),
  primary key (resort_id, sha256)
);
alter table mountain.resort_3d_packs enable row level security;
grant select on mountain.resort_3d_packs to anon, authenticated;
grant all on mountain.resort_3d_packs to service_role;
