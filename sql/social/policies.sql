-- Row level security of the social core. Direct access is narrow: one's own
-- profile row, one's own friendships (the relay's friends:{id} stream re-reads
-- them), the blocks one made, one's own friend codes. No clause reads the
-- caller's own row of the same table. Everything else: RPCs only.

drop policy if exists reserved_usernames_read on social.reserved_usernames;
create policy reserved_usernames_read on social.reserved_usernames
  for select to anon, authenticated using (true);

drop policy if exists profiles_own_read on social.profiles;
create policy profiles_own_read on social.profiles
  for select to authenticated using (id = (select auth.uid()));

drop policy if exists profiles_own_update on social.profiles;
create policy profiles_own_update on social.profiles
  for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

drop policy if exists friendships_own_read on social.friendships;
create policy friendships_own_read on social.friendships
  for select to authenticated
  using (user_a = (select auth.uid()) or user_b = (select auth.uid()));

drop policy if exists blocks_own_read on social.blocks;
create policy blocks_own_read on social.blocks
  for select to authenticated using (blocker_id = (select auth.uid()));

drop policy if exists friend_codes_own_read on social.friend_codes;
create policy friend_codes_own_read on social.friend_codes
  for select to authenticated using (owner_id = (select auth.uid()));
