-- private.notify_parties, the meets:{id} trigger function: attached the wrong
-- way or to the wrong columns it says so. (That it notifies each party with
-- ids only is tested on a live listener in Tests/RelayTests, since a
-- notification is only delivered when its transaction commits.)
begin;
select plan(6);

create table public.notify_probe (id uuid primary key default gen_random_uuid(), sender_id uuid, receiver_id uuid, note text);
create trigger notify_probe_parties after insert or update or delete on public.notify_probe
  for each row execute function private.notify_parties('meets', 'id', 'sender_id', 'receiver_id');

select lives_ok($$insert into public.notify_probe (sender_id, receiver_id) values (gen_random_uuid(), gen_random_uuid())$$,
  'an insert with both parties notifies without error');
select lives_ok($$insert into public.notify_probe (sender_id) values (gen_random_uuid())$$,
  'a missing party is skipped');
select lives_ok($$update public.notify_probe set receiver_id = gen_random_uuid(), note = 'moved'$$,
  'an update that moves a party notifies the old and the new one');
select lives_ok($$delete from public.notify_probe$$, 'a delete notifies');

drop trigger notify_probe_parties on public.notify_probe;
create trigger notify_probe_parties after insert on public.notify_probe
  for each row execute function private.notify_parties('meets', 'id', 'sender', 'receiver_id');
select throws_ok($$insert into public.notify_probe (sender_id) values (gen_random_uuid())$$,
  '42703', 'private.notify_parties: public.notify_probe has no column sender',
  'a party column the table lacks is named in the error');

drop trigger notify_probe_parties on public.notify_probe;
create trigger notify_probe_parties after insert on public.notify_probe
  for each statement execute function private.notify_parties('meets', 'id', 'sender_id');
select throws_ok($$insert into public.notify_probe (sender_id) values (gen_random_uuid())$$,
  '39P01', 'private.notify_parties on public.notify_probe is misattached',
  'a statement-level attachment is refused with how to attach it');

select * from finish();
rollback;
