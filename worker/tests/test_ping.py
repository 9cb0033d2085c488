from __future__ import annotations

import subprocess

from loopline.queue import PING_TASK, get_celery


def test_a_real_worker_answers_the_ping_task_through_redis(
    celery_worker_process: subprocess.Popen[bytes],
) -> None:
    result = get_celery().send_task(PING_TASK)
    assert result.get(timeout=10) == "pong"
    # The answer came from the separate worker process, not from this one.
    assert celery_worker_process.poll() is None
