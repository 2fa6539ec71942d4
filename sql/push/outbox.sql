-- Push notifications (tables in migrations/push/outbox.sql).
--
-- Enqueueing: AFTER triggers on friend requests, friendships and meet requests
-- insert outbox rows, one per device of the person to tell, in the transaction
-- of the change itself, so a notification exists exactly when the change
-- committed. Nothing is enqueued toward someone in a blocked pair with the
-- actor, and a friend request to someone who blocked the sender (suppressed:
-- it "looks sent but never arrives") enqueues nothing either. An enqueue that
-- fails is logged as a warning and skipped: it never fails the user's write.
--
-- Delivering: the worker, as the service role, claims due rows with
-- push.claim_due (FOR UPDATE SKIP LOCKED; each claim moves next_attempt_at a
-- lease ahead and stamps a claim id, so concurrent workers never take the same
-- row), sends them, and reports under the claim id with push.record_delivered,
-- push.record_retry (backoff with jitter, up to push.max_attempts()),
-- push.record_failed or push.record_dead_token.

-- ---------------------------------------------------------------- devices

drop policy if exists device_tokens_own_read on social.device_tokens;
create policy device_tokens_own_read on social.device_tokens
  for select to authenticated using (profile_id = (select auth.uid()));

drop policy if exists device_tokens_own_delete on social.device_tokens;

-- How many devices one person keeps; registering one more forgets the least recently registered.
create or replace function push.devices_per_person() returns integer
  language sql immutable
  set search_path = ''
  as $$ select 10 $$;

create or replace function private.device_token_json(t social.device_tokens) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select jsonb_build_object('id', t.id, 'token', t.token, 'environment', t.environment,
      'platform', t.platform, 'created_at', t.created_at, 'updated_at', t.updated_at)
  $$;

-- Registers the caller's device (or refreshes it). A token registered by
-- someone else before moves to the caller: the old owner's row and its
-- undelivered notifications go, so a phone never receives another person's pushes.
create or replace function social.register_device_token(
  p_token text, p_environment text default 'production', p_platform text default 'ios'
) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_token text := lower(btrim(p_token));
  v_environment text := lower(btrim(coalesce(p_environment, 'production')));
  v_platform text := lower(btrim(coalesce(p_platform, 'ios')));
  v_row social.device_tokens;
begin
  if v_token is null or v_token !~ '^[0-9a-f]{64,200}$' then
    perform private.fail('device_token_invalid',
      'Pass the APNs device token as hex (64 to 200 characters), as the app received it.');
  end if;
  -- the app's aps-environment entitlement says "development" for sandbox builds
  if v_environment = 'development' then
    v_environment := 'sandbox';
  end if;
  if v_environment not in ('sandbox', 'production') then
    perform private.fail('environment_invalid',
      'Use sandbox (or development) for development builds and production for App Store and TestFlight builds.');
  end if;
  if v_platform not in ('ios', 'ipados', 'macos', 'watchos', 'visionos') then
    perform private.fail('platform_invalid', 'Use ios, ipados, macos, watchos or visionos.');
  end if;
  -- serialise registrations of one token
  perform pg_advisory_xact_lock(hashtextextended(v_token, 95));
  delete from social.device_tokens where token = v_token and profile_id <> v_uid;
  insert into social.device_tokens (profile_id, token, environment, platform, created_at, updated_at)
  values (v_uid, v_token, v_environment, v_platform, summit.now(), summit.now())
  on conflict (token) do update
    set environment = excluded.environment, platform = excluded.platform, updated_at = excluded.updated_at
  returning * into v_row;
  delete from social.device_tokens
  where profile_id = v_uid and id in (
    select id from social.device_tokens where profile_id = v_uid
    order by updated_at desc, created_at desc offset push.devices_per_person());
  return private.device_token_json(v_row);
end
$$;

-- Removes one of the caller's devices (signing out on that phone); true when there was one.
create or replace function social.unregister_device_token(p_token text) returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_count integer;
begin
  delete from social.device_tokens where token = lower(btrim(p_token)) and profile_id = v_uid;
  get diagnostics v_count = row_count;
  return v_count > 0;
end
$$;

create or replace function social.my_device_tokens() returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return coalesce((select jsonb_agg(private.device_token_json(t) order by t.updated_at desc)
                   from social.device_tokens t where t.profile_id = v_uid), '[]'::jsonb);
end
$$;

-- ---------------------------------------------------------------- enqueue

-- How a person is named in a notification: display name, else @username.
create or replace function private.push_name(p_id uuid) returns text
  language sql stable security definer
  set search_path = ''
  as $$
    select coalesce(nullif(btrim(p.display_name), ''), '@' || p.username, 'Someone')
    from social.profiles p where p.id = p_id
  $$;

-- One outbox row per device of p_recipient, unless the recipient is the actor
-- or either blocked the other.
create or replace function private.enqueue_push(
  p_kind text, p_recipient uuid, p_actor uuid, p_subject uuid, p_title text, p_body text
) returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_count integer;
begin
  if p_recipient is null or p_recipient = p_actor
     or (p_actor is not null and private.blocked_pair(p_recipient, p_actor)) then
    return 0;
  end if;
  insert into push.outbox (kind, recipient_id, actor_id, device_token_id, subject_id, payload,
                           collapse_id, next_attempt_at, created_at)
  select p_kind, p_recipient, p_actor, t.id, p_subject,
         jsonb_build_object(
           'aps', jsonb_build_object(
             'alert', jsonb_build_object('title', p_title, 'body', p_body),
             'sound', 'default',
             'thread-id', p_kind),
           'type', p_kind,
           'actor_id', p_actor,
           'subject_id', p_subject),
         left(p_kind || ':' || coalesce(p_subject::text, p_actor::text, ''), 64),
         summit.now(), summit.now()
  from social.device_tokens t
  where t.profile_id = p_recipient;
  get diagnostics v_count = row_count;
  return v_count;
exception when others then
  -- a notification is never worth failing the change it announces
  raise warning 'push: could not enqueue % for %: % (%)', p_kind, p_recipient, sqlerrm, sqlstate;
  return 0;
end
$$;

create or replace function private.push_on_friend_request() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  -- a suppressed request was sent to someone who blocked the sender: no trace on their side
  if new.status = 'pending' and not new.suppressed then
    perform private.enqueue_push('friend_request', new.to_id, new.from_id, new.id,
      'Friend request', private.push_name(new.from_id) || ' wants to be friends');
  end if;
  return null;
end
$$;

drop trigger if exists push_on_friend_request on social.friend_requests;
create trigger push_on_friend_request after insert on social.friend_requests
  for each row execute function private.push_on_friend_request();

-- A new friendship tells the other party of whoever made it (the one accepting
-- a request, answering with their own, or redeeming a code); made by the
-- server for neither of them, it tells both.
create or replace function private.push_on_friendship() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_actor uuid := auth.uid();
begin
  if v_actor is distinct from new.user_a then
    perform private.enqueue_push('friend_added', new.user_a, new.user_b, null,
      'New friend', private.push_name(new.user_b) || ' and you are now friends');
  end if;
  if v_actor is distinct from new.user_b then
    perform private.enqueue_push('friend_added', new.user_b, new.user_a, null,
      'New friend', private.push_name(new.user_a) || ' and you are now friends');
  end if;
  return null;
end
$$;

drop trigger if exists push_on_friendship on social.friendships;
create trigger push_on_friendship after insert on social.friendships
  for each row execute function private.push_on_friendship();

-- A new pending meet request tells the receiver; its acceptance tells the sender.
create or replace function private.push_on_meet_request() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  if tg_op = 'INSERT' and new.status = 'pending' then
    perform private.enqueue_push('meet_request', new.receiver_id, new.sender_id, new.id,
      'Meet request', private.push_name(new.sender_id) || ' wants to meet at ' || new.meeting_node_display_name);
  elsif tg_op = 'UPDATE' and old.status = 'pending' and new.status = 'accepted' then
    perform private.enqueue_push('meet_started', new.sender_id, new.receiver_id, new.id,
      'Meet started', private.push_name(new.receiver_id) || ' is on the way to ' || new.meeting_node_display_name);
  end if;
  return null;
end
$$;

drop trigger if exists push_on_meet_request on meet.meet_requests;
create trigger push_on_meet_request after insert or update of status on meet.meet_requests
  for each row execute function private.push_on_meet_request();

-- ---------------------------------------------------------------- deliver

-- After this many attempts a notification is given up.
create or replace function push.max_attempts() returns integer
  language sql immutable
  set search_path = ''
  as $$ select 8 $$;

-- The wait before attempt n+1 after n failed ones: 30 s doubling up to an hour,
-- times a random factor in [0.75, 1.25) so workers that failed together
-- do not come back together.
create or replace function push.retry_delay(p_attempts integer) returns interval
  language sql volatile
  set search_path = ''
  as $$
    select make_interval(secs => least(3600, 30 * power(2, greatest(p_attempts, 1) - 1))
                                 * (0.75 + random() * 0.5))
  $$;

create or replace function private.require_service_role() returns void
  language plpgsql stable
  set search_path = ''
  as $$
begin
  -- definer code runs as its owner, so ask the claims who called: never a client
  if coalesce(auth.role(), '') in ('anon', 'authenticated') then
    perform private.fail('not_allowed', 'Only the worker (service role) delivers push notifications.');
  end if;
end
$$;

-- Claims up to p_limit due notifications for p_worker: each gets one more
-- attempt, a new claim id and next_attempt_at = now + p_lease_seconds (if the
-- worker dies, it becomes due again then). Rows whose pair has blocked each
-- other since they were enqueued are dropped instead of claimed.
create or replace function push.claim_due(p_worker text, p_limit integer default 50,
                                          p_lease_seconds integer default 300)
returns table (id bigint, claim_id uuid, kind text, recipient_id uuid, token text, environment text,
               payload jsonb, collapse_id text, attempts integer, created_at timestamptz)
  language plpgsql volatile security definer
  set search_path = ''
  as $$
#variable_conflict use_column
begin
  perform private.require_service_role();
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    perform private.fail('limit_invalid', 'Claim between 1 and 1000 notifications at a time.');
  end if;
  if p_lease_seconds is null or p_lease_seconds < 5 then
    perform private.fail('lease_invalid', 'A lease is at least 5 seconds: longer than one delivery takes.');
  end if;
  return query
  with due as (
    select o.id from push.outbox o
    where o.status = 'pending' and o.next_attempt_at <= summit.now()
    order by o.next_attempt_at, o.id
    limit p_limit
    for update skip locked
  ), blocked as (
    update push.outbox o set status = 'dropped', finished_at = summit.now(),
      last_error = 'the two people blocked each other before it was delivered'
    from due where o.id = due.id and o.actor_id is not null
      and private.blocked_pair(o.recipient_id, o.actor_id)
    returning o.id
  ), claimed as (
    update push.outbox o set attempts = o.attempts + 1, claim_id = gen_random_uuid(),
      claimed_by = p_worker, next_attempt_at = summit.now() + make_interval(secs => p_lease_seconds)
    from due where o.id = due.id and o.id not in (select b.id from blocked b)
    returning o.*
  )
  select c.id, c.claim_id, c.kind, c.recipient_id, t.token, t.environment, c.payload, c.collapse_id,
         c.attempts, c.created_at
  from claimed c join social.device_tokens t on t.id = c.device_token_id
  order by c.next_attempt_at, c.id;
end
$$;

create or replace function push.record_delivered(p_id bigint, p_claim_id uuid, p_http_status integer default 200)
returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.require_service_role();
  update push.outbox set status = 'delivered', finished_at = summit.now(), last_http_status = p_http_status,
    last_error = null
  where id = p_id and claim_id = p_claim_id and status = 'pending';
  return found;
end
$$;

-- A delivery that may succeed later: due again after the backoff (or after
-- p_retry_after_seconds when the server said so and that is longer), or given
-- up once it has had push.max_attempts() attempts. Answers the new status.
create or replace function push.record_retry(p_id bigint, p_claim_id uuid, p_http_status integer, p_error text,
                                             p_retry_after_seconds integer default null)
returns text
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_status text;
begin
  perform private.require_service_role();
  update push.outbox o set
    status = case when o.attempts >= push.max_attempts() then 'failed' else 'pending' end,
    finished_at = case when o.attempts >= push.max_attempts() then summit.now() end,
    next_attempt_at = summit.now() + greatest(push.retry_delay(o.attempts),
                                              make_interval(secs => coalesce(p_retry_after_seconds, 0))),
    last_http_status = p_http_status, last_error = left(p_error, 500)
  where o.id = p_id and o.claim_id = p_claim_id and o.status = 'pending'
  returning o.status into v_status;
  return v_status;
end
$$;

-- A delivery that can never succeed (a malformed request, a token for another topic): given up now.
create or replace function push.record_failed(p_id bigint, p_claim_id uuid, p_http_status integer, p_error text)
returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.require_service_role();
  update push.outbox set status = 'failed', finished_at = summit.now(), last_http_status = p_http_status,
    last_error = left(p_error, 500)
  where id = p_id and claim_id = p_claim_id and status = 'pending';
  return found;
end
$$;

-- APNs says the token is no longer valid (410): the device goes, and with it
-- every notification still waiting for it.
create or replace function push.record_dead_token(p_id bigint, p_claim_id uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_token uuid;
begin
  perform private.require_service_role();
  select device_token_id into v_token from push.outbox
  where id = p_id and claim_id = p_claim_id and status = 'pending';
  if not found then
    return false;
  end if;
  delete from social.device_tokens where id = v_token;
  return true;
end
$$;

-- Forgets finished notifications older than p_age; answers how many.
create or replace function push.purge_finished(p_age interval default interval '7 days') returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_count integer;
begin
  perform private.require_service_role();
  delete from push.outbox where status <> 'pending' and finished_at < summit.now() - p_age;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;

-- ---------------------------------------------------------------- grants

revoke all on function push.devices_per_person(), private.device_token_json(social.device_tokens),
  private.push_name(uuid), private.enqueue_push(text, uuid, uuid, uuid, text, text),
  private.push_on_friend_request(), private.push_on_friendship(), private.push_on_meet_request(),
  push.max_attempts(), push.retry_delay(integer), private.require_service_role(),
  push.claim_due(text, integer, integer), push.record_delivered(bigint, uuid, integer),
  push.record_retry(bigint, uuid, integer, text, integer), push.record_failed(bigint, uuid, integer, text),
  push.record_dead_token(bigint, uuid), push.purge_finished(interval)
  from public, anon, authenticated;
grant execute on function push.devices_per_person(), push.max_attempts(), push.retry_delay(integer),
  push.claim_due(text, integer, integer), push.record_delivered(bigint, uuid, integer),
  push.record_retry(bigint, uuid, integer, text, integer), push.record_failed(bigint, uuid, integer, text),
  push.record_dead_token(bigint, uuid), push.purge_finished(interval)
  to service_role;

revoke all on function social.register_device_token(text, text, text),
  social.unregister_device_token(text), social.my_device_tokens() from public, anon;
grant execute on function social.register_device_token(text, text, text),
  social.unregister_device_token(text), social.my_device_tokens() to authenticated, service_role;
