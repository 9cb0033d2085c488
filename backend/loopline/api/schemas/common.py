"""Shared schema pieces: pages, metres <-> millimetres, error bodies."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T] = Field(description="The items of this page.")
    total: int = Field(description="How many items there are in all pages.", examples=[48])
    page: int = Field(description="This page's number, from 1.", examples=[1])
    limit: int = Field(description="Items per page.", examples=[50])


class Schema(BaseModel):
    model_config = ConfigDict(from_attributes=True, extra="forbid")


class ReadSchema(BaseModel):
    model_config = ConfigDict(from_attributes=True)


def mm(metres: float) -> int:
    return round(metres * 1000)


def m(millimetres: int) -> float:
    return millimetres / 1000


def attrs(obj: Any, names: list[str]) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in names}


class ErrorItem(BaseModel):
    loc: list[str | int] = Field(description="Path of the offending field.", examples=[["body", "width_m"]])
    field: str | None = Field(None, description="The same path, dotted (domain errors).", examples=["width_m"])
    msg: str = Field(description="Why it was refused.", examples=["must be greater than 0"])


class ErrorBody(BaseModel):
    detail: list[ErrorItem] = Field(description="One entry per problem.")
    current_version: int | None = Field(
        None, description="On 409 for a stale `If-Match`: the resource's current version.", examples=[4]
    )


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "Not logged in (no valid session cookie or bearer token)."},
    403: {"model": ErrorBody, "description": "Logged in, but the role or the token's scopes do not allow this."},
    404: {"model": ErrorBody, "description": "Not found (or not visible to you)."},
    409: {"model": ErrorBody, "description": "Stale `If-Match` version, or a clash with existing state."},
    422: {"model": ErrorBody, "description": "Invalid input: each entry names the field and the reason."},
    428: {"model": ErrorBody, "description": "`If-Match` header required for this write."},
}
