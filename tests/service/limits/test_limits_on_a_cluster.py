"""The limits on a real Redis Cluster (three masters): the tests of ``test_limits`` and ``test_stream_limits`` that
touch Redis, run again with every client talking to the cluster (the buckets and the stream slots spread over the
slots; the live games' set is one key)."""

from __future__ import annotations

from test_cluster import connect  # every client of these tests talks to the cluster
from test_limits import (  # the fixtures too: pytest finds them in this module
    limited,
    prefix,
    test_a_made_up_token_counts_nowhere_and_changes_nothing,
    test_a_token_s_budget_is_kept_on_its_game_s_slot,
    test_counters_expire_when_their_bucket_is_full_again,
    test_creations_beyond_the_burst_are_refused_with_retry_after,
    test_each_valid_token_has_its_own_change_budget,
    test_gcra_never_lets_more_through_than_its_rate_and_retry_after_is_enough,
    test_the_budget_refills_with_time,
    test_the_cap_refuses_creations_until_a_game_goes,
    test_writes_renew_a_game_s_expiry_in_the_count,
)
from test_stream_limits import (
    capped,
    opened,
    slots_prefix,
    test_a_stream_that_ends_gives_its_slot_back,
    test_a_token_holds_at_most_its_cap_of_streams_from_any_address,
    test_an_address_holds_at_most_its_cap_of_streams,
    test_slots_of_a_process_that_died_expire_with_their_lease,
)

FIXTURES = [connect, limited, prefix, capped, opened, slots_prefix]
ON_THE_CLUSTER = [
    test_a_made_up_token_counts_nowhere_and_changes_nothing,
    test_a_token_s_budget_is_kept_on_its_game_s_slot,
    test_counters_expire_when_their_bucket_is_full_again,
    test_creations_beyond_the_burst_are_refused_with_retry_after,
    test_each_valid_token_has_its_own_change_budget,
    test_writes_renew_a_game_s_expiry_in_the_count,
    test_gcra_never_lets_more_through_than_its_rate_and_retry_after_is_enough,
    test_the_budget_refills_with_time,
    test_the_cap_refuses_creations_until_a_game_goes,
    test_an_address_holds_at_most_its_cap_of_streams,
    test_a_stream_that_ends_gives_its_slot_back,
    test_a_token_holds_at_most_its_cap_of_streams_from_any_address,
    test_slots_of_a_process_that_died_expire_with_their_lease,
]
