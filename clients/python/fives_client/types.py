"""The archive's answers the client reads, typed as the OpenAPI schema (``/api/schema/``)
writes them: one TypedDict per component, its fields the component's properties.

``COMPONENTS`` names the schema component of each; the archive's tests read these types
against the schema it serves (``tests/clients/test_types.py``), so a change of the API that
breaks the client fails there first.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

UploadStatus = Literal["pending", "accepted", "partial", "rejected", "failed"]
UploadKind = Literal["json", "ndjson"]
UploadItemStatus = Literal["accepted", "duplicate", "rejected"]


class Issue(TypedDict):
    """An error or a warning of a report: its stable ``code`` and its ``message`` in words."""

    code: str
    hand: int | None  # from 0; the message counts from 1
    move: int | None
    seat: int | None
    message: str


class HandResult(TypedDict):
    index: NotRequired[int]
    end: str
    points: list[int]
    settlement: list[int]
    scores: list[int]


class Report(TypedDict):
    """The validation report of docs/format.md (as ``fives_engine.validate_log`` makes it)."""

    valid: bool
    outcome: str
    ruleset: dict[str, Any] | None
    errors: list[Issue]
    warnings: list[Issue]
    scores: list[int]
    winner: int | None
    hands: list[HandResult]


class UploadItem(TypedDict):
    """One log of an upload: its line (``index``, from 0), status, match and report."""

    index: int
    status: UploadItemStatus
    match: int | None
    report: Report


class UploadSummary(TypedDict):
    id: int
    url: str
    status: UploadStatus
    kind: UploadKind
    filename: str
    size: int
    problem: str
    failure: str
    item_count: int
    accepted_count: int
    rejected_count: int
    created_at: str
    processed_at: str | None
    items_url: str


class Upload(UploadSummary):
    """An upload's answer: its summary and the reports of its first logs (``items``)."""

    items: list[UploadItem]


class PaginatedUploadItemList(TypedDict):
    next: str | None
    previous: str | None
    results: list[UploadItem]


class ErrorDetail(TypedDict):
    code: str
    message: str
    fields: NotRequired[dict[str, list[str]]]
    retry_after: NotRequired[int]


class ErrorBody(TypedDict):
    """Every error's one shape (docs/api.md, "Errors"); the schema types it as an object."""

    error: ErrorDetail


# Each type and the schema component it stands for (``#/components/schemas/...``).
COMPONENTS: dict[str, type] = {
    "Issue": Issue,
    "HandResult": HandResult,
    "Report": Report,
    "UploadItem": UploadItem,
    "UploadSummary": UploadSummary,
    "Upload": Upload,
    "PaginatedUploadItemList": PaginatedUploadItemList,
}
