-- Row level security of the mountain schema. Clients (authenticated) see the
-- resort catalog and what has been published: publications, the active
-- pointer, published manifests with their rows and blobs, and status
-- sidecars. Staged manifests and unpublished builds are invisible. Only the
-- service role (BYPASSRLS) writes. The lookups below use the publication
-- table's unique keys, which index every policy column.

drop policy if exists resorts_read on mountain.resorts;
create policy resorts_read on mountain.resorts for select to anon, authenticated using (true);

drop policy if exists publication_read on mountain.resort_canonical_publication;
create policy publication_read on mountain.resort_canonical_publication for select to authenticated using (true);

drop policy if exists active_read on mountain.resort_canonical_active;
create policy active_read on mountain.resort_canonical_active for select to authenticated using (true);

drop policy if exists status_read on mountain.resort_status;
create policy status_read on mountain.resort_status for select to authenticated using (true);

drop policy if exists manifest_published_read on mountain.resort_canonical_manifest;
create policy manifest_published_read on mountain.resort_canonical_manifest for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = resort_canonical_manifest.resort_id
                   and p.manifest_version = resort_canonical_manifest.manifest_version));

drop policy if exists trail_published_read on mountain.canonical_trail;
create policy trail_published_read on mountain.canonical_trail for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = canonical_trail.resort_id and p.manifest_version = canonical_trail.manifest_version));

drop policy if exists lift_published_read on mountain.canonical_lift;
create policy lift_published_read on mountain.canonical_lift for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = canonical_lift.resort_id and p.manifest_version = canonical_lift.manifest_version));

drop policy if exists connector_published_read on mountain.canonical_connector;
create policy connector_published_read on mountain.canonical_connector for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = canonical_connector.resort_id and p.manifest_version = canonical_connector.manifest_version));

drop policy if exists rendezvous_published_read on mountain.canonical_rendezvous_point;
create policy rendezvous_published_read on mountain.canonical_rendezvous_point for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = canonical_rendezvous_point.resort_id
                   and p.manifest_version = canonical_rendezvous_point.manifest_version));

drop policy if exists geometry_override_published_read on mountain.canonical_geometry_override;
create policy geometry_override_published_read on mountain.canonical_geometry_override for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = canonical_geometry_override.resort_id
                   and p.manifest_version = canonical_geometry_override.manifest_version_introduced));

-- A blob is readable exactly when its identity (content SHA included) was published.
drop policy if exists graph_blob_published_read on mountain.resort_graph_blob;
create policy graph_blob_published_read on mountain.resort_graph_blob for select to authenticated
  using (exists (select 1 from mountain.resort_canonical_publication p
                 where p.resort_id = resort_graph_blob.resort_id
                   and p.manifest_version = resort_graph_blob.manifest_version
                   and p.snapshot_date = resort_graph_blob.snapshot_date
                   and p.graph_version = resort_graph_blob.graph_version
                   and p.content_sha256 = resort_graph_blob.sha256));

-- The manifest and exact graph identity the active pointer selects, one row
-- per resort with an active publication. Staged manifests never appear. RLS
-- of the caller applies (security_invoker).
create or replace view mountain.current_resort_canonical_manifest with (security_invoker = true) as
  select a.resort_id,
         p.manifest_version,
         p.graph_version,
         p.snapshot_date,
         p.content_sha256,
         mountain.dataset_version(p.manifest_version, p.graph_version, p.content_sha256) as dataset_version,
         b.fingerprint,
         b.node_count,
         b.edge_count,
         b.blob_sha256,
         m.expected_trail_count,
         m.expected_lift_count,
         m.headline_trail_count,
         m.headline_lift_count,
         m.canonical_counts_reviewed,
         m.evidence_observed_at,
         m.evidence_urls,
         p.id as publication_id,
         p.first_published_at,
         a.activated_at
  from mountain.resort_canonical_active a
  join mountain.resort_canonical_publication p on p.id = a.publication_id
  join mountain.resort_canonical_manifest m
    on m.resort_id = p.resort_id and m.manifest_version = p.manifest_version
  join mountain.resort_graph_blob b
    on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
   and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version;
grant select on mountain.current_resort_canonical_manifest to authenticated, service_role;
