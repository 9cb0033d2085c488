"""Shared schema pieces: pages, reading rows and domain objects (millimetres -> metres), error bodies."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from loopline.domain.names import spoofing
from loopline.domain.units import m

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T] = Field(description="The items of this page.")
    total: int = Field(description="How many items there are in all pages.", examples=[48])
    page: int = Field(description="This page's number, from 1.", examples=[1])
    limit: int = Field(description="Items per page.", examples=[50])

    @classmethod
    def of(cls, found: Any, read: type[T]) -> Page[T]:
        """A repository page (`db.repositories.Page`) with each item read by `read`."""
        model: Any = read
        return Page[read](  # type: ignore[valid-type]
            items=[model.model_validate(item) for item in found.items],
            total=found.total,
            page=found.page,
            limit=found.limit,
        )


MAX_ID = 2**31 - 1
"""Ids and versions are PostgreSQL `integer`s."""


NAME_FIELDS = frozenset({"name", "display_name", "name_a", "name_b", "rack_name_pattern", "part_number"})
"""Fields of a request that name something: every one is held to `domain.names.spoofing`."""


_KINDS: dict[Any, tuple[str, str]] = {
    int: ("int_type", "Input should be a valid integer"),
    float: ("float_type", "Input should be a valid number"),
    bool: ("bool_type", "Input should be a valid boolean"),
}
JsonKind = tuple[Any, ...]
"""What a field's value must be, as JSON: ("scalar", int|float|bool), ("optional", kind),
("list", kind) or ("dict", kind)."""


def json_kind(annotation: Any) -> JsonKind | None:
    """The JSON type checks an annotation needs, or None where pydantic's own parsing is the rule
    (text, enums, dates, models, unions of several kinds)."""
    origin = typing.get_origin(annotation)
    if annotation in _KINDS:
        return ("scalar", annotation)
    if origin is Annotated:
        return json_kind(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        inner = json_kind(members[0]) if len(members) == 1 else None
        return ("optional", inner) if inner else None
    if origin in (list, dict):
        inner = json_kind(typing.get_args(annotation)[-1])
        return (origin.__name__, inner) if inner else None
    return None


def check_json_kind(kind: JsonKind, value: Any) -> Any:
    """`value` unchanged, or a validation error where it is of another JSON type than `kind`:
    `integer` and `number` refuse `"5"` and `false`, `boolean` refuses `1` and `"true"`, which
    pydantic would convert. (An integral `4.0` is an integer to JSON Schema, and pydantic takes it.)"""
    what, inner = kind
    if what == "optional":
        return value if value is None else check_json_kind(inner, value)
    if what == "list" and isinstance(value, list):
        for item in value:
            check_json_kind(inner, item)
    elif what == "dict" and isinstance(value, dict):
        for item in value.values():
            check_json_kind(inner, item)
    elif what == "scalar":
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not (isinstance(value, bool) if inner is bool else number):
            raise PydanticCustomError(*_KINDS[inner])
    return value


class _JsonKindCheck(BeforeValidator):
    """The before-validator `Schema` adds (a class of its own, so a subclass does not add it twice)."""


class Schema(BaseModel):
    """Base of every request body."""

    # NaN and Infinity (JSON extensions Python accepts) are no length, count or speed.
    model_config = ConfigDict(from_attributes=True, extra="forbid", allow_inf_nan=False)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Numbers and booleans take only the JSON type the document names (`check_json_kind`),
        # checked before pydantic's conversions; the field's constraints and schema are untouched.
        super().__pydantic_init_subclass__(**kwargs)
        changed = False
        for info in cls.model_fields.values():
            kind = json_kind(info.annotation)
            if kind is not None and not any(isinstance(m, _JsonKindCheck) for m in info.metadata):
                info.metadata.append(_JsonKindCheck(partial(check_json_kind, kind)))
                changed = True
        if changed:
            cls.model_rebuild(force=True)

    @field_validator("*", mode="after", check_fields=False)
    @classmethod
    def _names_do_not_spoof(cls, value: Any, info: ValidationInfo) -> Any:
        # One rule for every name a request sends, nested documents (imports) included.
        if info.field_name in NAME_FIELDS and isinstance(value, str) and (reason := spoofing(value)):
            raise ValueError(reason)
        return value


@dataclass(frozen=True, slots=True)
class FromMillimetres:
    """Marks a metres field of a `ReadSchema` (`Annotated[float, FromMillimetres("width_mm")]`):
    read from an object, it takes that millimetre attribute, converted. Invisible in the JSON schema."""

    attribute: str


class ReadSchema(BaseModel):
    """Validates from ORM rows, Core rows and domain objects (`from_attributes`); fields marked
    `FromMillimetres` read the millimetre attribute and convert it. Plain dicts are taken as they are."""

    model_config = ConfigDict(from_attributes=True)
    __millimetres__: ClassVar[dict[str, str]] = {}

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.__millimetres__ = {
            name: meta.attribute
            for name, info in cls.model_fields.items()
            for meta in info.metadata
            if isinstance(meta, FromMillimetres)
        }

    @model_validator(mode="before")
    @classmethod
    def _millimetres_to_metres(cls, data: Any) -> Any:
        if isinstance(data, dict) or not cls.__millimetres__:
            return data
        out: dict[str, Any] = {}
        for name in cls.model_fields:
            source = cls.__millimetres__.get(name)
            if source is not None:
                out[name] = m(getattr(data, source))
            elif hasattr(data, name):
                out[name] = getattr(data, name)
        return out


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
    429: {"model": ErrorBody, "description": "Too many attempts: wait the `Retry-After` seconds, then try again."},
}
