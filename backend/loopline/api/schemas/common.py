"""Shared schema pieces: pages, reading rows and domain objects (millimetres -> metres), error bodies."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
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


def _json_number(kind: str, message: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        # JSON's numbers only: not `true`/`false` and not text. (An integral `4.0` is an integer
        # to JSON Schema, and pydantic takes it as 4.)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PydanticCustomError(kind, message)
        return value

    return BeforeValidator(check)


_STRICT: dict[Any, Any] = {
    int: Annotated[int, _json_number("int_type", "Input should be a valid integer")],
    float: Annotated[float, _json_number("float_type", "Input should be a valid number")],
    bool: Annotated[bool, Strict()],
}


def strict_scalars(annotation: Any) -> Any:
    """`annotation` with every int, float and bool in it (through unions, lists, dicts and
    `Annotated`) taking only the JSON type the document names: `integer` and `number` refuse
    `"5"` and `false`, `boolean` refuses `1` and `"true"` (pydantic would convert them). Enums and
    dates keep their parsing."""
    origin = typing.get_origin(annotation)
    if annotation in _STRICT:
        return _STRICT[annotation]
    if origin is Annotated:
        inner, *meta = typing.get_args(annotation)
        return Annotated[(strict_scalars(inner), *meta)]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(strict_scalars(a) for a in typing.get_args(annotation))]  # noqa: UP007
    if origin in (list, dict):
        return origin[tuple(strict_scalars(a) for a in typing.get_args(annotation))]
    return annotation


class Schema(BaseModel):
    """Base of every request body."""

    # NaN and Infinity (JSON extensions Python accepts) are no length, count or speed.
    model_config = ConfigDict(from_attributes=True, extra="forbid", allow_inf_nan=False)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        changed = False
        for info in cls.model_fields.values():
            strict = strict_scalars(info.annotation)
            if strict != info.annotation:
                info.annotation, changed = strict, True
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
