"""`/api/v1/halls/{id}/device-names`: host names and asset tags of a hall's devices."""

from __future__ import annotations

from fastapi import APIRouter, Query, Response

from loopline.api.deps import DbSession, HallId, IfMatch, LayoutReader, LayoutWriter, Paging, etag
from loopline.api.schemas.common import ERROR_RESPONSES
from loopline.api.schemas.device_names import DeviceNamesCsv, DeviceNamesRead, DeviceNamingUpdate
from loopline.domain import device_names as dn
from loopline.domain.exports import to_csv
from loopline.services import device_naming
from loopline.services.device_naming import HallNaming

router = APIRouter(
    prefix="/api/v1/halls",
    tags=["device names"],
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)},
)


def _read(naming: HallNaming, response: Response, page: int, limit: int, row: str | None = None) -> DeviceNamesRead:
    """One page of the hall's names; the response's ETag is the naming's version."""
    response.headers["ETag"] = etag(naming.version)
    devices = [d for d in naming.devices if row is None or d.slot.row == row]
    chosen = devices[(page - 1) * limit : page * limit]
    items = [
        {
            "device": d.slot.key,
            "row": d.slot.row,
            "rack": d.slot.rack_name,
            "u": d.slot.u,
            "role": d.slot.role,
            "name": d.host_name,
            "source": d.source,
            "host_name": d.host_name if d.source == "override" else None,
            "asset_tag": d.asset_tag,
        }
        for d in chosen
    ]
    return DeviceNamesRead.model_validate(
        {
            "template": naming.template,
            "version": naming.version,
            "items": items,
            "total": len(devices),
            "page": page,
            "limit": limit,
        }  # fmt: skip
    )


@router.get("/{hall_id}/device-names", response_model=DeviceNamesRead, summary="The hall's device names")
def get_names(
    hall_id: HallId,
    session: DbSession,
    access: LayoutReader,
    paging: Paging,
    response: Response,
    row: str | None = Query(None, max_length=100, description="Only the devices of this row."),
) -> DeviceNamesRead:
    """Every device (servers, ToRs, fabric switches) with its location name, the host name in effect
    (its override, else the template's, else the location) and asset tag, in hall order. 422 naming
    both devices if the layout has changed so that two names now clash."""
    naming = device_naming.hall_naming(session, hall_id)
    return _read(naming, response, paging.page, paging.limit, row)


@router.patch(
    "/{hall_id}/device-names",
    response_model=DeviceNamesRead,
    summary="Set the naming template and/or device overrides",
    responses={428: ERROR_RESPONSES[428]},
)
def update_names(
    hall_id: HallId,
    data: DeviceNamingUpdate,
    session: DbSession,
    access: LayoutWriter,
    if_match: IfMatch,
    response: Response,
    paging: Paging,
) -> DeviceNamesRead:
    """`If-Match` the version read (`"0"` before the first change). Fields left out are left as they
    are. Refused (422) naming the field: a template with an unknown field or format, a name that is no
    host name, two devices that would share a name (both named) or an asset tag."""
    sent = data.model_fields_set
    overrides = [(o.device, dn.Override(o.host_name or None, o.asset_tag or None)) for o in data.overrides]
    if "template" in sent:
        naming = device_naming.update(session, access, hall_id, if_match, template=data.template, overrides=overrides)
    else:
        naming = device_naming.update(session, access, hall_id, if_match, overrides=overrides)
    return _read(naming, response, paging.page, paging.limit)


@router.post(
    "/{hall_id}/device-names/import",
    response_model=DeviceNamesRead,
    summary="Bulk-edit overrides from a CSV (all or nothing)",
    responses={428: ERROR_RESPONSES[428]},
)
def import_names(
    hall_id: HallId,
    data: DeviceNamesCsv,
    session: DbSession,
    access: LayoutWriter,
    if_match: IfMatch,
    response: Response,
    paging: Paging,
) -> DeviceNamesRead:
    """Each refused cell is one error item, `loc` `["csv", "line[3]", "host_name"]` and a message
    starting `line 3, column host_name:`; one refused cell refuses the file."""
    naming = device_naming.import_csv(session, access, hall_id, data.csv, if_match)
    return _read(naming, response, paging.page, paging.limit)


@router.get(
    "/{hall_id}/device-names.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "device,host_name,asset_tag,name"}},
    summary="The device names as CSV (edit host_name and upload it back)",
)
def export_names(hall_id: HallId, session: DbSession, access: LayoutReader) -> Response:
    naming = device_naming.hall_naming(session, hall_id)
    return Response(
        to_csv(dn.CSV_COLUMNS, device_naming.csv_rows(naming)).encode(),
        media_type="text/csv",
        headers={
            "ETag": etag(naming.version),
            "Content-Disposition": f'attachment; filename="hall-{hall_id}-device-names.csv"',
        },
    )
