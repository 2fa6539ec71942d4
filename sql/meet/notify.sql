-- Row-change notifications for the parties of a row, ids only.
--
-- An AFTER ... FOR EACH ROW trigger function: for every party column named in
-- its arguments it sends pg_notify('{prefix}:{party id}', '{"table":…,"id":…,"event":…}'),
-- where event is insert, update or delete. The row itself never crosses the
-- wire: a subscriber re-reads it under row level security, so nothing RLS
-- would hide leaks and no payload nears NOTIFY's 8000-byte limit. An update
-- that moves a party tells both the old and the new one.
--
-- Arguments: channel prefix, id column, then one or more party columns. Meet
-- requests attach it as
--
--   create trigger meet_requests_notify after insert or update or delete on meet.meet_requests
--     for each row execute function private.notify_parties('meets', 'id', 'sender_id', 'receiver_id');
--
-- (friendships already tell friends:{id} through social_change_notify, with
-- the relay's generation number).
create or replace function private.notify_parties() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_row jsonb := coalesce(v_new, v_old);
  v_payload text;
  v_parties text[] := '{}';
  v_party text;
begin
  if tg_level <> 'ROW' or tg_when <> 'AFTER' or tg_nargs < 3 then
    raise exception using errcode = '39P01',
      message = format('private.notify_parties on %I.%I is misattached', tg_table_schema, tg_table_name),
      hint = 'Attach it AFTER INSERT OR UPDATE OR DELETE ... FOR EACH ROW with arguments: channel prefix, id column, party column(s).';
  end if;
  for i in 1 .. tg_nargs - 1 loop
    if not v_row ? tg_argv[i] then
      raise exception using errcode = '42703',
        message = format('private.notify_parties: %I.%I has no column %I', tg_table_schema, tg_table_name, tg_argv[i]),
        hint = 'Name the id column and the party columns of the table the trigger is on.';
    end if;
  end loop;

  v_payload := json_build_object('table', tg_table_name, 'id', v_row ->> tg_argv[1], 'event', lower(tg_op))::text;
  for i in 2 .. tg_nargs - 1 loop
    v_parties := v_parties || array[v_new ->> tg_argv[i], v_old ->> tg_argv[i]];
  end loop;
  for v_party in select distinct p from unnest(v_parties) p where p is not null loop
    perform pg_notify(tg_argv[0] || ':' || v_party, v_payload);
  end loop;
  return null;
end
$$;

revoke all on function private.notify_parties() from public;
