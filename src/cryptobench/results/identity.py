"""Which machine a run was measured on: hostname, the user's label, a stable id, and the
virtual hardware or cloud instance type where files on disk say it (no network call ever:
no metadata endpoint is queried). Merged into the run's machine fingerprint."""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path

from ..errors import UsageError

LABEL_ENV = "CRYPTOBENCH_MACHINE_LABEL"
DMI = Path("/sys/class/dmi/id")
CLOUD_INIT = Path("/run/cloud-init/instance-data.json")  # world-readable, secrets redacted
# where cloud-init's datasource metadata keeps the instance type, per cloud
INSTANCE_TYPE_KEYS = (
    ("instance-type",),  # EC2
    ("instance_type",),
    ("imds", "compute", "vmSize"),  # Azure
    ("instance", "machineType"),  # GCE: projects/N/machineTypes/TYPE
    ("machineType",),
)


def _read(path: Path) -> str | None:
    try:
        text = path.read_text(errors="replace").strip()
    except OSError:
        return None
    return text or None


def machine_id(root: Path = Path("/")) -> tuple[str, str]:
    """(id, where it came from): a hash of systemd's machine-id (never the raw value, as
    machine-id(5) asks), else of the hostname."""
    for rel in ("etc/machine-id", "var/lib/dbus/machine-id"):
        raw = _read(root / rel)
        if raw:
            return hashlib.sha256(f"cryptobench:{raw}".encode()).hexdigest()[:16], rel
    host = socket.gethostname()
    return hashlib.sha256(f"cryptobench-host:{host}".encode()).hexdigest()[:16], "hostname"


def _dig(obj, keys):
    for k in keys:
        if not isinstance(obj, dict) or k not in obj:
            return None
        obj = obj[k]
    return obj if isinstance(obj, str) and obj else None


def cloud(path: Path = CLOUD_INIT) -> dict | None:
    """Cloud, region and instance type from cloud-init's instance data, where present."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    v1 = doc.get("v1") or {}
    meta = (doc.get("ds") or {}).get("meta_data") or {}
    itype = next((t for keys in INSTANCE_TYPE_KEYS if (t := _dig(meta, keys))), None)
    out = {
        "provider": v1.get("cloud_name"),
        "region": v1.get("region"),
        "availability_zone": v1.get("availability_zone"),
        "instance_type": itype.rsplit("/", 1)[-1] if itype else None,
    }
    return out if any(out.values()) else None


def hardware(dmi: Path = DMI) -> dict:
    """DMI vendor and product (on EC2 Nitro the product name is the instance type)."""
    return {
        "vendor": _read(dmi / "sys_vendor"),
        "product": _read(dmi / "product_name"),
    }


LABEL_MAX = 64


def check_label(text: str, where: str = "--machine-label") -> str:
    """A machine label as listings can show it: 1–64 printable characters (no newline, tab
    or other control character: one would print a fake row), no space at either end."""
    if not 1 <= len(text) <= LABEL_MAX or not text.isprintable() or text != text.strip():
        raise UsageError(
            f"{where} {text!r}: a label is 1–{LABEL_MAX} printable characters (no newline, "
            "tab or other control character), without spaces at either end"
        )
    return text


def identity(label: str | None = None) -> dict:
    """The fields a run's fingerprint gains: hostname, label, machine_id, product, cloud."""
    if not label and os.environ.get(LABEL_ENV):
        label = check_label(os.environ[LABEL_ENV], LABEL_ENV)
    mid, source = machine_id()
    hw = hardware()
    cl = cloud()
    return {
        "hostname": socket.gethostname(),
        "label": label or os.environ.get(LABEL_ENV) or None,
        "machine_id": mid,
        "machine_id_source": source,
        "dmi_vendor": hw["vendor"],
        "dmi_product": hw["product"],
        "cloud": cl,
        "instance_type": (cl or {}).get("instance_type")
        or (hw["product"] if (hw["vendor"] or "").startswith("Amazon") else None),
    }


def display_label(m: dict) -> str:
    """What a machine is called in listings: its label, else hostname, else CPU model."""
    return m.get("label") or m.get("hostname") or m.get("cpu_model") or "unknown machine"
