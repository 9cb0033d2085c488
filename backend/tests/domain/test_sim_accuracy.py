"""Decomposed mode's measured error written out for the API documentation."""

from __future__ import annotations

from loopline.domain.sim_accuracy import accuracy_markdown


def test_each_bucket_reads_as_its_largest_error_rounded_to_a_percent() -> None:
    text = accuracy_markdown(
        {
            "accuracy": {
                "measured_on": ["k8-websearch-40", "k8-incast"],
                "by_size": [
                    {"bucket": "<10KB", "mean_slowdown_error": 0.254, "p99_slowdown_error": 0.316},
                    {"bucket": ">=10MB", "mean_slowdown_error": 0.07, "p99_slowdown_error": 0.125},
                ],
                "source": "sim-engine/README.md#decomposed-mode-calibration",
            }
        }
    )
    lines = text.splitlines()
    assert "| <10KB | ±25% | ±32% |" in lines
    assert "| >=10MB | ±7% | ±12% |" in lines
    assert lines[-1] == "Measured on: k8-websearch-40, k8-incast."


def test_without_a_calibration_it_says_where_to_read() -> None:
    for missing in (None, {"accuracy": None, "cases": []}):
        assert accuracy_markdown(missing).endswith(
            "Not measured in this build (see sim-engine/README.md, Decomposed mode calibration)."
        )
