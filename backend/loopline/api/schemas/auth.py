"""Accounts and API tokens."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.services.access import Scope


class RegisterIn(Schema):
    email: str = Field(
        min_length=3,
        max_length=320,
        pattern=r"^[^@\s]+@[^@\s]+$",
        description="Login email.",
        examples=["ada@example.com"],
    )
    password: str = Field(
        min_length=8,
        max_length=200,
        description="At least 8 characters, and hard to guess: common passwords, words, keyboard walks, "
        "repeats and the account's own email or name are refused (422 says why).",
        examples=["correct horse battery"],
    )
    display_name: str = Field("", max_length=200, description="Name shown to other members.", examples=["Ada"])


class RegisterAccepted(BaseModel):
    email: str = Field(description="The address, as it is stored (lower case).", examples=["ada@example.com"])
    detail: str = Field(
        description="The same text whether or not the address was new.",
        examples=["If this address is new, its account has been created: log in with the same email and password."],
    )


class LoginIn(Schema):
    email: str = Field(max_length=320, description="Login email.", examples=["demo@loopline.local"])
    password: str = Field(max_length=200, description="Password.", examples=["loopline-demo"])


class UserRead(ReadSchema):
    id: int = Field(description="User id.", examples=[1])
    email: str = Field(description="Login email (lower case).", examples=["demo@loopline.local"])
    display_name: str = Field(description="Name shown to other members.", examples=["Demo"])


class MeRead(BaseModel):
    user: UserRead = Field(description="The logged-in user.")
    via: str = Field(description="`session` (browser cookie) or `token` (API token).", examples=["session"])
    scopes: list[Scope] = Field(description="What this credential may do (a session has every scope).")


class TokenCreate(Schema):
    name: str = Field(
        min_length=1, max_length=200, description="What the token is for.", examples=["procurement BOM export"]
    )
    scopes: list[Scope] = Field(
        min_length=1, description="What the token may do.", examples=[["layout:read", "bom:read"]]
    )
    expires_in_days: int | None = Field(
        None, ge=1, le=3650, description="Days until it expires; never when omitted.", examples=[90]
    )


class TokenRead(ReadSchema):
    id: int = Field(description="Token id.", examples=[3])
    name: str = Field(description="What the token is for.", examples=["procurement BOM export"])
    prefix: str = Field(description="First characters of the secret, to recognise it.", examples=["llt_Xy7Qa1"])
    scopes: list[Scope] = Field(description="What the token may do.")
    created_at: datetime = Field(description="When it was created.")
    expires_at: datetime | None = Field(description="When it stops working, if ever.")
    last_used_at: datetime | None = Field(description="Last request made with it.")
    revoked_at: datetime | None = Field(description="When it was revoked, if it was.")


class TokenCreated(TokenRead):
    token: str = Field(
        description="The secret: send as `Authorization: Bearer <token>`. Shown once, only its hash is kept.",
        examples=["llt_Xy7Qa1..."],
    )
