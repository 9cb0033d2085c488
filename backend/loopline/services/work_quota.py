"""How much engine work one user and one project may have waiting: a quota in estimated seconds.

Every submission carries its run-time estimate (`sim_estimates`); the estimates of a user's (and a
project's) queued and running simulations are summed, and a submission that would take either sum
past its limit is refused 429 with the figures. A user with nothing waiting may always submit one
run, however large (the worker's own limits still end it), so the quota never locks anyone out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, SimulationJob
from loopline.domain.errors import DomainError
from loopline.services.sim_estimates import duration
from loopline.settings import get_settings

_QUOTA_LOCK = 0x51554F54  # "QUOT": advisory lock namespace; the key is the user's or project's id
RETRY_AFTER_MAX_S = 3600


class QueuedWorkOverQuota(DomainError):
    status = 429

    def __init__(self, reason: str, retry_after_s: int) -> None:
        super().__init__("quota", reason)
        self.retry_after_s = retry_after_s


@dataclass(frozen=True, slots=True)
class Waiting:
    user_s: float
    project_s: float


def waiting(session: Session, user_id: int, project_id: int) -> Waiting:
    """Estimated engine seconds of the unfinished simulations of the user (any project) and of the
    project (any user). Locks both counts until the transaction ends, so two submissions at once
    cannot both pass on the same figures."""
    for key in (user_id, -project_id):
        session.execute(select(func.pg_advisory_xact_lock(_QUOTA_LOCK, key)))
    unfinished = SimulationJob.status.in_((JobStatus.QUEUED, JobStatus.RUNNING))
    total = func.sum(SimulationJob.estimated_s)
    user_s = session.execute(select(total).where(unfinished, SimulationJob.created_by == user_id)).scalar()
    project_s = session.execute(select(total).where(unfinished, SimulationJob.project_id == project_id)).scalar()
    return Waiting(user_s or 0.0, project_s or 0.0)


def check(session: Session, user_id: int, project_id: int, work_s: float) -> None:
    """Refuse (429, naming `quota`) a run of `work_s` estimated seconds that would take the user's
    or the project's waiting work past its limit."""
    settings = get_settings()
    now = waiting(session, user_id, project_id)
    for whose, held, limit in (
        ("your", now.user_s, settings.queued_work_per_user_s),
        ("this project's", now.project_s, settings.queued_work_per_project_s),
    ):
        if held > 0 and held + work_s > limit:
            raise QueuedWorkOverQuota(
                f"{whose} queued and running simulations hold about {duration(held)} of estimated engine work; "
                f"this one adds {duration(work_s)}, over the limit of {duration(limit)}: wait for some to "
                "finish or cancel one",
                retry_after_s=min(RETRY_AFTER_MAX_S, max(1, math.ceil(held + work_s - limit))),
            )
