"""`/api/v1/catalog`: server models, switch models, rack types and PDU models: the global (builtin) entries and
the caller's own; another user's entry is 404."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response, status
from pydantic import BaseModel

from loopline.api.deps import DbSession, EntryId, IfMatch, Paging, etag, require_scope
from loopline.api.schemas.catalog import (
    PduModelCreate,
    PduModelRead,
    PduModelUpdate,
    RackTypeCreate,
    RackTypeRead,
    RackTypeUpdate,
    ServerModelCreate,
    ServerModelRead,
    ServerModelUpdate,
    SwitchModelCreate,
    SwitchModelRead,
    SwitchModelUpdate,
    columns,
)
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.db.models import PduModel, RackType, ServerModel, SwitchModel
from loopline.services import catalog
from loopline.services.access import Principal, Scope

router = APIRouter(
    prefix="/api/v1/catalog",
    tags=["catalog"],
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422, 428)},
)

Reader = Annotated[Principal, Depends(require_scope(Scope.LAYOUT_READ))]
Writer = Annotated[Principal, Depends(require_scope(Scope.LAYOUT_WRITE))]


def _routes(
    path: str, label: str, model: type[Any], create: type[BaseModel], update: type[BaseModel], read: type[BaseModel]
) -> None:
    @router.get(
        f"/{path}",
        response_model=Page[read],  # type: ignore[valid-type]
        summary=f"List {label}s: the global ones and yours",
        name=f"list_{path}",
    )
    def list_(session: DbSession, principal: Reader, paging: Paging) -> object:
        return catalog.list_entries(session, principal, model, page=paging.page, limit=paging.limit)

    @router.post(
        f"/{path}",
        response_model=read,
        status_code=status.HTTP_201_CREATED,
        summary=f"Add a {label}",
        name=f"create_{path}",
    )
    def create_(data: create, session: DbSession, principal: Writer, response: Response) -> object:  # type: ignore[valid-type]
        obj = catalog.create_entry(session, principal, model, columns(data, partial=False))
        response.headers["ETag"] = etag(obj.version)
        return obj

    @router.get(f"/{path}/{{entry_id}}", response_model=read, summary=f"Get a {label}", name=f"get_{path}")
    def get_(entry_id: EntryId, session: DbSession, principal: Reader, response: Response) -> object:
        obj = catalog.get_entry(session, principal, model, entry_id)
        response.headers["ETag"] = etag(obj.version)
        return obj

    @router.patch(
        f"/{path}/{{entry_id}}",
        response_model=read,
        summary=f"Change a {label} (yours, not builtin)",
        name=f"update_{path}",
    )
    def update_(
        entry_id: EntryId,
        data: update,  # type: ignore[valid-type]
        session: DbSession,
        principal: Writer,
        if_match: IfMatch,
        response: Response,
    ) -> object:
        obj = catalog.update_entry(session, principal, model, entry_id, columns(data, partial=True), if_match)
        response.headers["ETag"] = etag(obj.version)
        return obj

    @router.delete(
        f"/{path}/{{entry_id}}",
        status_code=status.HTTP_204_NO_CONTENT,
        response_model=None,
        summary=f"Delete an unused {label}",
        name=f"delete_{path}",
    )
    def delete_(entry_id: EntryId, session: DbSession, principal: Writer, if_match: IfMatch) -> None:
        catalog.delete_entry(session, principal, model, entry_id, if_match)


_routes("server-models", "server model", ServerModel, ServerModelCreate, ServerModelUpdate, ServerModelRead)
_routes("switch-models", "switch model", SwitchModel, SwitchModelCreate, SwitchModelUpdate, SwitchModelRead)
_routes("rack-types", "rack type", RackType, RackTypeCreate, RackTypeUpdate, RackTypeRead)
_routes("pdu-models", "PDU model", PduModel, PduModelCreate, PduModelUpdate, PduModelRead)
