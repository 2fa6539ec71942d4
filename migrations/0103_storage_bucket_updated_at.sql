-- Buckets can now be changed (the gateway's PUT /storage/v1/bucket/{id}), so they
-- say when, in the platform's own column. Guarded like 0015: on the hosted
-- platform the column exists and nothing here runs.
do $$
begin
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'storage' and table_name = 'buckets' and column_name = 'updated_at') then
    alter table storage.buckets add column updated_at timestamptz;
    update storage.buckets set updated_at = created_at;
    alter table storage.buckets alter column updated_at set default now(), alter column updated_at set not null;
  end if;
end
$$;
