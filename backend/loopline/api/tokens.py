"""`/api/v1/tokens`: API tokens for programs (shown once, stored hashed, scoped, revocable)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, status

from loopline.api.deps import CurrentUser, DbSession, Paging, TokenId, require_scope
from loopline.api.schemas.auth import TokenCreate, TokenCreated, TokenRead
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.services import auth
from loopline.services.access import Principal, Scope

router = APIRouter(
    prefix="/api/v1/tokens",
    tags=["tokens"],
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 422)},
)


@router.post("", response_model=TokenCreated, status_code=status.HTTP_201_CREATED, summary="Create an API token")
def create_token(data: TokenCreate, session: DbSession, principal: CurrentUser) -> TokenCreated:
    """Only from a browser session. The secret is in the answer once; keep it."""
    token, secret = auth.create_token(session, principal, data.name, data.scopes, data.expires_in_days)
    return TokenCreated.model_validate({**TokenRead.model_validate(token).model_dump(), "token": secret})


@router.get("", response_model=Page[TokenRead], summary="List your API tokens (without secrets)")
def list_tokens(
    session: DbSession, principal: Annotated[Principal, Depends(require_scope(Scope.TOKENS_READ))], paging: Paging
) -> object:
    """A browser session, or a token with the `tokens:read` scope."""
    return auth.list_tokens(session, principal, page=paging.page, limit=paging.limit)


@router.delete(
    "/{token_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Revoke an API token",
    responses={404: ERROR_RESPONSES[404]},
)
def revoke_token(token_id: TokenId, session: DbSession, principal: CurrentUser) -> None:
    auth.revoke_token(session, principal, token_id)
