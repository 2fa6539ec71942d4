-- The apps ask for a resort's graph to be built when the graph fetch says
-- not_built (a manifest is staged, nothing is published). Builds and
-- publications are the operator's (service role): an app's ask is recorded
-- here, once per resort and manifest with a count, for the operator to see.
create table mountain.graph_build_requests (
  resort_id text not null references mountain.resorts (id) on delete cascade,
  manifest_version integer not null,
  request_count integer not null default 1,
  first_requested_at timestamptz not null default now(),
  last_requested_at timestamptz not null default now(),
  primary key (resort_id, manifest_version),
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version) on delete cascade,
  constraint graph_build_requests_count check (request_count >= 1)
);
alter table mountain.graph_build_requests enable row level security;
grant select, insert, update on mountain.graph_build_requests to service_role;
