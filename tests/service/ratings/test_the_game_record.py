"""A player's record in The Game: games, wins, win rate, best score and streaks, per player count."""

from __future__ import annotations

from service.ratings.the_game import Played, Record, record


def game(ended_ms: int, players: int, score: int) -> Played:
    return Played(ended_ms, players, score == 0, score)


def test_no_games_no_record() -> None:
    assert record([]) == {}
    assert Record().win_rate == 0.0


def test_the_record_per_player_count() -> None:
    played = [game(1, 2, 10), game(2, 2, 0), game(3, 3, 4), game(4, 2, 0), game(5, 2, 0), game(6, 2, 7), game(7, 2, 0)]
    records = record(reversed(played))  # streaks follow the order the games ended in, not the order given
    assert list(records) == [2, 3]
    two = records[2]
    assert (two.games, two.wins, two.best_score, two.streak, two.best_streak) == (6, 4, 0, 1, 3)
    assert two.win_rate == 4 / 6
    assert records[3].to_dict() == {
        "games": 1,
        "wins": 0,
        "win_rate": 0.0,
        "best_score": 4,
        "streak": 0,
        "best_streak": 0,
    }


def test_a_loss_ends_the_streak_and_a_game_at_another_count_does_not() -> None:
    records = record([game(1, 2, 0), game(2, 2, 0), game(3, 4, 12), game(4, 2, 0), game(5, 2, 3)])
    assert (records[2].streak, records[2].best_streak) == (0, 3)
    assert records[2].best_score == 0 and records[4].best_score == 12
