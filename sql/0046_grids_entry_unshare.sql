-- An entry that goes from Group to Private leaves the other members' phones
-- through a group_unshares row (§6.7, P5). The server narrows entries too: when
-- words are joined onto a person's entry (R13, C9, C11: "the narrower audience
-- kept"), a Group entry can become Private by a server write. Such a write must
-- unshare the entry just as the author's own change does, or the phones that
-- already hold it keep showing it to the group (RLS no longer lets them pull it).
create or replace function private.entries_after() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  if old.audience = 'group' and new.audience = 'private' and not new.deleted then
    perform private.unshare(new.group_id, 'entry', new.id, new.author_id, null, 'private');
  end if;
  return null;
end
$$;

revoke all on function private.entries_after() from public;
