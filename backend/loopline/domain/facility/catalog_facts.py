"""Facts of the builtin catalog, each from a named datasheet or standard (`source`).

The builtin catalog's entries are generic ("48x25G+8x100G ToR"); each is given the figures of one
named product of that kind, and says which. A figure no source gives stays None: the check that
needs it then says which fact is missing instead of guessing.

Where a figure was read from the NetBox community device-type library (YAML transcribed from the
vendor's datasheet), `source` names both the datasheet the YAML cites and the YAML's path. A power
port's `maximum_draw` (W) is taken as max_w and its `allocated_draw` (NetBox's budgeting figure) as
typical_w; a device with two redundant PSUs lists the same figures on each port, read as the whole
device's (each PSU alone can carry it), not a half share. Where a server's `maximum_draw` is only its
PSU's rating, its `source` says so: an upper bound, not a measured draw.

Airflow is read from the rack's front, the face the layout's `port_face` normally is (the cold
aisle). Vendors disagree on which face of a switch is its "front" (Cisco has called the fan side of
some Nexus models the front), so only switches whose front is known to be the port side carry an
airflow here: Arista's, whose fans and power supplies are on the rear panel (Arista EOS manual,
Environment Control Overview, https://www.arista.com/en/um-eos/eos-environment-control-overview),
so their "-F" (front-to-rear) models take air in on the port side. A server's front is its bezel,
taken as mounted at the rack front (the usual mounting). Where a product comes in both directions,
the front-to-rear variant is the one named.
"""

from __future__ import annotations

import math

from loopline.domain.facility.model import (
    Airflow,
    CableFacts,
    DeviceFacts,
    OpticFacts,
    PduModel,
    TraySpec,
)

LB_KG = 0.45359237
"""One avoirdupois pound in kg (exact by definition): datasheets in lb are converted with it."""

_DTL = "netbox-community/devicetype-library"


def _lb(pounds: float) -> float:
    return round(pounds * LB_KG, 3)


_QM9700 = (
    "NVIDIA Quantum-2 QM9700 (MQM9700-NS2F; 1U; 64 x 400 Gb/s NDR InfiniBand ports on 32 twin-port OSFP"
    " cages; split mode 128 x 200 Gb/s, i.e. 2 links per port): https://yobitel.com/knowledge-base/"
    "nvidia-quantum-2; NVIDIA DGX BasePOD reference architecture (QM9700 compute fabric, each DGX link at"
    " NDR200), https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-"
    "enterprise-ai/latest/reference-architectures.html. "
)
_SUPERPOD_FABRICS = (
    "NVIDIA DGX SuperPOD reference architecture with DGX H100, Network Fabrics, Table 4 (compute fabric"
    " component count), https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
    "h100/latest/network-fabrics.html"
)
_QM9700_LEAF = (
    "Split as a DGX SuperPOD rail leaf: 32 ports down (one per server of a 32-node SU, on its rail) and"
    f" 32 up: {_SUPERPOD_FABRICS}, 1 SU = 8 leaves and 256 spine-leaf cables, 32 per leaf. Power, weight"
    " and airflow: no figure found in the searched sources (None)."
)
_QM9700_SPINE = (
    f"As a DGX SuperPOD spine, every port down to the leaves: {_SUPERPOD_FABRICS}, 1 SU = 4 spines for"
    " 256 spine-leaf cables, 64 per spine. Power, weight and airflow: no figure found in the searched"
    " sources (None)."
)

SWITCH_FACTS: dict[str, DeviceFacts] = {
    "48x25G+8x100G ToR": DeviceFacts(
        typical_w=310.0,
        max_w=647.0,
        source=(
            "Dell PowerSwitch S5248F-ON (1U, 48x25G SFP28 + 4x100G QSFP28 + 2x QSFP28-DD = 8x100G):"
            " Dell EMC PowerSwitch S5200-ON Series spec sheet,"
            " https://www.delltechnologies.com/asset/en-in/products/networking/technical-support/"
            "dell_emc_networking-s5200_on_spec_sheet.pdf, as transcribed in"
            f" {_DTL} device-types/Dell/PowerSwitch-s5248f-on.yaml (power ports: maximum_draw 647 W,"
            " allocated_draw 310 W). Weight and airflow: not in that source (None)."
        ),
    ),
    "48x10G+6x40G ToR": DeviceFacts(
        weight_kg=_lb(17.3),
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "Arista DCS-7050SX-72Q-F (1U, 48x10G SFP+ + 6x40G QSFP+, front-to-rear airflow):"
            " Arista 7050SX Data Sheet, https://www.arista.com/assets/data/pdf/Datasheets/"
            f"7050SX-128_64_Datasheet_S.pdf, as transcribed in {_DTL}"
            " device-types/Arista/DCS-7050SX-72Q-F.yaml (weight 17.3 lb x 0.45359237 = 7.847 kg,"
            " airflow front-to-rear). Typical and maximum power: not in that source (None)."
        ),
    ),
    "32x100G switch": DeviceFacts(
        typical_w=360.0,
        max_w=635.0,
        source=(
            "Dell PowerSwitch S5232F-ON (1U, 32x100G QSFP28): Dell EMC PowerSwitch S5200-ON Series"
            " spec sheet, https://www.delltechnologies.com/asset/en-in/products/networking/"
            "technical-support/dell_emc_networking-s5200_on_spec_sheet.pdf, as transcribed in"
            f" {_DTL} device-types/Dell/PowerSwitch-s5232f-on.yaml (power ports: maximum_draw 635 W,"
            " allocated_draw 360 W). Weight and airflow: not in that source (None)."
        ),
    ),
    "64x100G spine": DeviceFacts(
        typical_w=314.0,
        max_w=616.0,
        weight_kg=_lb(34),
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "Arista DCS-7260CX3-64-F (2U, 64x100G QSFP100, front-to-rear airflow): Arista 7260X3 Data"
            " Sheet, https://www.arista.com/assets/data/pdf/Datasheets/7260X3_Datasheet.pdf, as"
            f" transcribed in {_DTL} device-types/Arista/DCS-7260CX3-64-F.yaml: power ports"
            " maximum_draw 616 W, allocated_draw 314 W in its version at commit 24f3cf89; weight"
            " 34 lb x 0.45359237 = 15.422 kg and airflow front-to-rear in the version mirrored by"
            " nautobot/devicetype-library (same path)."
        ),
    ),
    "32x100G+32x100G aggregation": DeviceFacts(
        typical_w=375.0,
        max_w=965.0,
        weight_kg=22.2,
        source=(
            "Huawei CloudEngine CE8850-64CQ-EI (2U, 64x100G QSFP28, split 32 down + 32 up):"
            " Huawei CE8850-64CQ-EI hardware description,"
            " https://support.huawei.com/enterprise/en/doc/EDOC1000019246/56d573f4/ce8850-64cq-ei,"
            f" as transcribed in {_DTL} device-types/Huawei/CE8850-64CQ-EI.yaml: power ports"
            " maximum_draw 965 W, allocated_draw 375 W in its version at commit 1f31f7ac; weight"
            " 22.2 kg (and the link above) in the version mirrored by nautobot/devicetype-library"
            " (same path). Airflow: not in that source (None)."
        ),
    ),
    "32x400G+32x400G leaf": DeviceFacts(source=_QM9700 + _QM9700_LEAF),
    "64x400G 1U spine": DeviceFacts(source=_QM9700 + _QM9700_SPINE),
    "64x800G switch": DeviceFacts(
        source=(
            "NVIDIA Spectrum-4 SN5600 (2U; 64 x 800GbE OSFP ports, 51.2 Tb/s; breakouts up to 256 x 100GbE,"
            " i.e. 4 links per port): https://probsee.com/p/NVIDIA_Spectrum_SN5600 (a summary of NVIDIA's"
            " SN5600 datasheet); 2U also in NVIDIA Spectrum-4 SN5000 2U Switch Systems Hardware User Manual"
            " Rev 1.0 (SN5400, SN5600), https://manuals.online/nvidia/switch/spectrum-4-sn5000-2u/"
            "instructions-for-use/p4r0. Power, weight and airflow: no figure found in the searched sources"
            " (None)."
        ),
    ),
}
"""Builtin switch model name -> facts."""

SERVER_FACTS: dict[str, DeviceFacts] = {
    "2x25G server": DeviceFacts(
        max_w=800.0,
        weight_kg=21.0,
        source=(
            "Dell PowerEdge R650 (1U, 2x25G OCP NIC): PowerEdge R650 Spec Sheet,"
            " https://i.dell.com/sites/csdocuments/Product_Docs/en/poweredge-r650-spec-sheet.pdf,"
            f" as transcribed in {_DTL} device-types/Dell/PowerEdge-R650.yaml (weight 21 kg)."
            " max_w: maximum_draw 800 W on each of its two PSU power ports as transcribed in"
            " nautobot/devicetype-library device-types/Dell/PowerEdge-R650.yaml (a fork of that"
            " library), i.e. the rated output of the 800 W PSU, an upper bound, not a measured draw."
            " Typical power and airflow: not in these sources (None)."
        ),
    ),
    "1x25G server": DeviceFacts(
        weight_kg=13.04,
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "HPE ProLiant DL360 Gen10 (1U, P19766-B21; 25G via FlexibleLOM/PCIe NIC): HPE ProLiant"
            " DL360 Gen10 QuickSpecs, https://www.hpe.com/psnow/doc/a00008159enw, as transcribed in"
            f" {_DTL} device-types/HPE/ProLiant-DL360-Gen10.yaml (weight 13.04 kg, the minimum"
            " configuration: one drive, one PSU, one processor; airflow front-to-rear)."
            " Power: not in that source (None)."
        ),
    ),
    "4x25G server": DeviceFacts(
        weight_kg=20.2,
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "Lenovo ThinkSystem SR645 (1U, 7D2X; 4x25G OCP 3.0 NIC): Lenovo Press product guide,"
            f" https://lenovopress.lenovo.com/lp1280.pdf, as transcribed in {_DTL}"
            " device-types/Lenovo/ThinkSystem-SR645.yaml (weight 20.2 kg, airflow front-to-rear)."
            " Power: not in that source (None)."
        ),
    ),
    "2x10G server": DeviceFacts(
        max_w=750.0,
        weight_kg=_lb(39.0),
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "Dell PowerEdge R640 (1U, 2x10GbE + 2x1GbE rNDC): PowerEdge R640 Technical Guide,"
            " https://i.dell.com/sites/csdocuments/Shared-Content_data-Sheets_Documents/en/us/"
            f"PowerEdge-R640-Technical-Guide.pdf, as transcribed in {_DTL}"
            " device-types/Dell/PowerEdge-R640.yaml (weight 39.0 lb x 0.45359237 = 17.69 kg;"
            " airflow front-to-rear; power ports maximum_draw 750 W, the rated output of the"
            " 750 W Platinum PSU it is modelled with: an upper bound for that configuration, not"
            " a measured draw; 1100 W and 1600 W PSUs exist for heavier ones)."
            " Typical power: not in that source (None)."
        ),
    ),
    "2x100G GPU server": DeviceFacts(
        max_w=2200.0,
        weight_kg=36.89,
        airflow=Airflow.FRONT_TO_REAR,
        source=(
            "Gigabyte G292-Z46 (2U GPU server, 4 x PCIe 4.0 x16 GPU slots, 2x100G NIC in a"
            " low-profile x16 slot): Gigabyte G292-Z46 specifications,"
            " https://www.gigabyte.com/Enterprise/GPU-Server/G292-Z46-rev-A00#Specifications,"
            f" as transcribed in {_DTL} device-types/Gigabyte/gigabyte-g292-z46.yml (weight"
            " 36.89 kg; airflow front-to-rear; PSU1/PSU2: 2200 W 80 PLUS Platinum). max_w is the"
            " PSU's rated output (each of the two can carry the server alone): an upper bound on"
            " its load, not a measured draw. Typical power: not in that source (None)."
        ),
    ),
    "8x400G GPU server": DeviceFacts(
        max_w=10_200.0,
        source=(
            "NVIDIA DGX H100 (8 x H100 SXM GPUs, four NVSwitch chips). Compute NICs (eight single-port"
            " ConnectX-7 behind four OSFP ports, up to 400 Gb/s each: one per rail) and front-end NICs (2 x"
            " dual-port QSFP112 ConnectX-7, up to 400 Gb/s: 4 ports): NVIDIA DGX BasePOD reference"
            " architecture, Core Components, https://docs.nvidia.com/dgx-basepod/reference-architecture-"
            "infrastructure-foundation-enterprise-ai/latest/core-components.html. GPU interconnect: 18 x"
            " 4th-generation NVLink, 900 GB/s per GPU (NVIDIA's MLPerf Inference v4.0 system description,"
            " mlcommons/inference_results_v4.0 closed/NVIDIA/systems/DGX-H100_H100-SXM-80GBx8_TRT.json),"
            " bi-directional per NVIDIA's Hopper architecture page, https://www.nvidia.com/en-sg/"
            "technologies/hopper-architecture/: 450 GB/s = 3600 Gb/s each direction. Height 8U and"
            " max_w 10.2 kW (four systems per rack: 40.8 kW): NVIDIA's DGX H100 figures as restated at"
            " https://unanswered.io/guide/nvidia-h100-gpu-density-per-node-rack; NVIDIA's DGX H100"
            " datasheet itself was not in the searched sources, so these two rest on that restatement."
            " Typical power, weight and airflow: no primary figure found (None)."
        ),
    ),
}
"""Builtin server model name -> facts."""


def _ri7(model: str, size: str, yaml_file: str, weight_kg: float) -> DeviceFacts:
    return DeviceFacts(
        weight_kg=weight_kg,
        source=(
            f"Conteg {model} ({size} mm): Conteg iSEVEN Ri7 data sheet,"
            " https://www.conteg.com/files/datasheets/iSEVEN_Ri7.pdf, as transcribed in"
            f" {_DTL} rack-types/Conteg/{yaml_file} (weight {weight_kg:g} kg, load rating 800 kg)."
        ),
    )


RACK_TYPE_FACTS: dict[str, DeviceFacts] = {
    "42U 600x1200": _ri7("Ri7-42-60/120", "42U, 600 x 1200", "RI7-42-60-120.yaml", 116.0),
    "48U 600x1200": _ri7("Ri7-48-60/120", "48U, 600 x 1200", "RI7-48-60-120.yaml", 128.0),
    "42U 800x1200": _ri7("Ri7-42-80/120", "42U, 800 x 1200", "rI7-42-80-120.yaml", 143.0),
}
"""Builtin rack type name -> its own weight (`weight_kg`) and source."""
RACK_TYPE_STATIC_LOAD_KG: dict[str, float] = {
    "42U 600x1200": 800.0,
    "48U 600x1200": 800.0,
    "42U 800x1200": 800.0,
}
"""Builtin rack type name -> the cabinet's load rating (kg), from the same source as its weight."""

PDU_MODELS: tuple[PduModel, ...] = (
    PduModel(
        "APC AP8653",
        outlets=24,
        weight_kg=8.23,
        source=(
            "APC AP8653 Rack PDU 2G, Switched, ZeroU, 32 A, 230 V single-phase (IEC 60309 2P+E),"
            " (21) C13 & (3) C19: 24 outlets as listed in"
            f" {_DTL} device-types/APC/AP8653.yaml; weight 8.23 kg as transcribed in"
            " nautobot/devicetype-library device-types/APC/AP8653.yaml (a fork of that library)."
        ),
    ),
    PduModel(
        "APC AP8888",
        outlets=42,
        weight_kg=_lb(30.97),
        source=(
            "APC AP8888 NetShelter Metered Rack PDU, 0U, 400 V 3-phase input (IEC 60309 3P+N+E),"
            " 23 kVA, 230 V output, 30 x C13 and 12 x C19 (product page"
            f" https://www.apc.com/us/en/product/AP8888/), as transcribed in {_DTL}"
            " device-types/APC/AP8888.yaml (42 outlets; weight 30.97 lb x 0.45359237 = 14.048 kg)."
        ),
    ),
)
_SPEEDS = ("10G", "25G", "40G", "50G", "100G", "200G", "400G", "800G")
"""The speeds `loopline.domain.media` builds parts for (its part numbers end in these)."""

_AOC_3MM = (
    "Skyward Telecom 100G QSFP28 to 4xSFP28 active optical cable specification,"
    " https://www.skywardtel.com/100G-QSFP28-TO-4xSFP28-Active-Optical-Cables-specification.html"
    " (cable diameter 3 mm, minimum bend radius 30 mm)."
)
_NVIDIA_SUPERPOD_CABLES = (
    "NVIDIA DGX SuperPOD: Data Center Design Featuring NVIDIA DGX H100 Systems, Networking, 'Cable Weights',"
    " Table 18 (Cable Weights by Type; given for sizing cable trays and their load, 'a general guide'),"
    " https://docs.nvidia.com/dgx-superpod/design-guides/dgx-superpod-data-center-design-h100/latest/networking.html,"
    " read in its mirror https://docs.nvda.net.cn/dgx-superpod/design-guides/dgx-superpod-data-center-design-h100/"
    "latest/networking.html"
)
_AOC_NVIDIA = (
    f"{_NVIDIA_SUPERPOD_CABLES}: AOC fibre, average single cable diameter 3.0 mm (+/- 0.4 mm), 0.006 lb per linear"
    " foot = 0.009 kg per linear metre. The guide gives one figure for every AOC cable, whatever its speed."
)
FIBRE_CORD_MIN_BEND_RADIUS_MM = 25.0
"""ANSI/TIA-568.0-D's minimum inside bend radius of optical fibre cord cable (`FIBRE_CORD_BEND_SOURCE`):
every fibre cord's figure, duplex LC here and the structured catalog's MPO cords."""
FIBRE_CORD_BEND_SOURCE = (
    f"Minimum bend radius: ANSI/TIA-568.0-D's {FIBRE_CORD_MIN_BEND_RADIUS_MM:g} mm (1 in) minimum inside bend"
    " radius for optical fibre cord cable, as quoted by Cabling Installation & Maintenance, 'Practical impacts of"
    " bend radius on twisted-pair cable installation',"
    " https://www.cablinginstall.com/design-install/article/16466578/practical-impacts-of-bend-radius-on-twistedpair-cable-installation"
    " (no separate loaded figure is quoted)."
)
_FIBRE_CORD_BEND = FIBRE_CORD_BEND_SOURCE + " Weight per metre of a duplex cord: no source found (None)."
_ZIPCORD_SIMPLEX_OD_MM = 2.0
"""2.0 mm: the commonest simplex jacket of a fibre patch cord, https://www.fiber-patchcords.com/fiber-optic-patch-cable-html
("... 0.9mm outer diameter, or 3mm outer diameter, or 2mm outer diameter. 2mm outer diameter is the
most commonly used ...")."""
_ZIPCORD_OD_MM = round(_ZIPCORD_SIMPLEX_OD_MM * math.sqrt(2), 2)
"""A duplex zipcord is two simplex cords joined by a web of jacket (Federal Standard 1037C, "zip-cord"):
two 2.0 mm circles, 2 x pi x 1.0^2 = 6.28 mm^2, which the tray check (pi x OD^2 / 4) reads as an
equivalent OD of 2.0 x sqrt(2) = 2.83 mm; the web is not counted (a lower bound)."""
_FIBRE_CORD = (
    _FIBRE_CORD_BEND + f" Cross-section: a duplex zipcord of two {_ZIPCORD_SIMPLEX_OD_MM} mm simplex cords"
    " (https://www.fiber-patchcords.com/fiber-optic-patch-cable-html: 2 mm the commonest jacket; zip-cord:"
    f" Federal Standard 1037C), taken as an equivalent OD of {_ZIPCORD_OD_MM} mm"
    " (2 x pi x 1.0^2 mm^2, web not counted)."
)

# A DAC part covers every sold length up to its reach (`loopline.domain.media`); its gauge, and so its
# diameter, grows with length, so each part takes the figures of the gauge its longest length needs.

CABLE_FACTS: dict[str, CableFacts] = {
    # Parts without any sourced figure: every fact None (the checks say which one is missing).
    **{f"DAC-{g}": CableFacts() for g in _SPEEDS},
    "DAC-25G-RSFEC": CableFacts(),
    **{f"ACC-{g}": CableFacts() for g in ("10G", "25G", "40G", "50G", "100G")},
    **{f"AEC-{g}": CableFacts() for g in ("200G", "400G", "800G")},
    "DAC-10G": CableFacts(
        min_bend_radius_mm=38.0,
        source=(
            "SFP+ passive DAC, 7 m reach: Juniper Networks' SFP+ DAC cable specifications (sustained bend"
            " radius by wire gauge: 24 AWG 38 mm, 26 AWG 33 mm, 28 AWG 25 mm, 30 AWG 23 mm) as quoted in"
            " a blog post on AWG and DAC cable thickness (in Japanese), https://blog.cles.jp/item/9339."
            " The 24 AWG figure is taken: the thickest gauge of the table, for the longest (7 m) lengths."
            " It is the only (sustained) figure quoted. Outer diameter and weight per metre: not in that"
            " source (None)."
        ),
    ),
    "DAC-400G": CableFacts(
        od_mm=7.9,
        min_bend_radius_mm=79.0,
        source=(
            "QSFP-DD passive DAC, 3 m reach: PHILISUN 400G QSFP-DD passive DAC specifications,"
            " https://www.philisun.com/products/400g-qsfp-dd-2-200g-qsfp56-dac (0.5-3 m; wire 28 or 30 AWG;"
            " cable OD 28 AWG 7.9 mm, 30 AWG 6.7 mm; minimum bend radius 5 x OD single, 10 x OD repeated)."
            " The page is the QSFP-DD to 2 x QSFP56 breakout; its 8-pair cable is taken for the straight"
            " QSFP-DD DAC. 28 AWG, the thicker gauge, for the 3 m reach: OD 7.9 mm; bend radius the larger"
            " figure, 10 x 7.9 = 79 mm. Weight per metre: not in that source (None)."
        ),
    ),
    "DAC-800G": CableFacts(
        od_mm=9.43,
        kg_per_m=0.045,
        source=(
            f"{_NVIDIA_SUPERPOD_CABLES}: copper, average single cable diameter 9.43 mm (+/- 0.4 mm), weight"
            " 0.03 lb per linear foot = 0.045 kg per linear metre. The guide gives one figure for every copper"
            " cable of that 400G/800G OSFP generation; it is taken for the 800G OSFP DAC, whose 2 m reach is"
            " 26 AWG (NVIDIA LinkX 100G-PAM4 product line overview: 30 AWG below 2 m, 26 AWG up to 3 m,"
            " https://docs.nvidia.com/networking/display/400g100gpam4ovpub/linkx-100g-pam4-product-line-overview)."
            " Bend radius: not in that source (None)."
        ),
    ),
    "AEC-800G": CableFacts(
        od_mm=9.43,
        kg_per_m=0.045,
        source=(
            f"{_NVIDIA_SUPERPOD_CABLES}: copper, average single cable diameter 9.43 mm (+/- 0.4 mm), weight"
            " 0.03 lb per linear foot = 0.045 kg per linear metre, one figure for every copper cable of that"
            " 400G/800G OSFP generation; taken for the 800G OSFP active copper cable, a DAC cable with a signal"
            " booster in each end (NVIDIA LinkX 100G-PAM4 product line overview, LACC). Bend radius: not in"
            " that source (None)."
        ),
    ),
    "DAC-100G": CableFacts(
        od_mm=6.7,
        source=(
            "Shenzhen Sinovo PS-QSFP28/QSFP28*2 QSFP28 passive DAC product specification (2015),"
            " https://www.scribd.com/document/374561956/QSFP28-100G-to-2-QSFP28-50G-DAC-Product-"
            "Specification-Tim-from-Sinovo, section 2: cable diameter 6.7 mm for 26 AWG PVC (the gauge"
            " of the longer lengths; 30 AWG: 5.4 mm). Weight per metre and bend radius: not in that"
            " source (None)."
        ),
    ),
    # Every AOC: NVIDIA's planning figures for an AOC's fibre cable (given by cable type, whatever the
    # speed), with a part's own datasheet figures added where one gives them.
    **{f"AOC-{g}": CableFacts(od_mm=3.0, kg_per_m=0.009, source=_AOC_NVIDIA) for g in _SPEEDS},
    "AOC-10G": CableFacts(
        od_mm=3.0,
        kg_per_m=0.009,
        source=(
            "Avago (Broadcom) AFBR-2CARxxZ 10G SFP+ active optical cable: external diameter 3 mm as listed"
            " by the distributor page https://novapart.co/products/AFBR-2CAR01Z/active-optical-cable-sfp-10gbe-1m"
            f" (which quotes the AFBR-2CARxxZ data sheet); weight per metre: {_AOC_NVIDIA}. Bend radius: not in"
            " these sources (None)."
        ),
    ),
    "AOC-40G": CableFacts(
        od_mm=3.0,
        kg_per_m=0.009,
        min_bend_radius_mm=30.0,
        source=(
            "Optone 40G QSFP+ active optical cable datasheet, https://www.scribd.com/document/604530143/40G-QSFP-AOC"
            " (recommended operating conditions: fiber bend radius 3 cm). Diameter and weight per metre:"
            f" {_AOC_NVIDIA}"
        ),
    ),
    "AOC-100G": CableFacts(
        od_mm=3.0, kg_per_m=0.009, min_bend_radius_mm=30.0, source=f"{_AOC_3MM} Weight per metre: {_AOC_NVIDIA}"
    ),
    "AOC-400G": CableFacts(
        od_mm=3.0,
        kg_per_m=0.009,
        min_bend_radius_mm=60.0,
        source=(
            "FluxLight QSFP56-DD-QSFP56-DD-AOC-xM-FL (400G QSFP-DD AOC, multimode round fibre cable)"
            " datasheet, https://fluxlight.com/content/Tech-Docs/400GBase%20QSFP56-DD-QSFP56-DD%20AOC.html:"
            " no mechanical load on the module needs a cable bend radius above 105 mm within 100 mm of either"
            " end and above 60 mm on the rest of the cable; 60 mm is taken, the figure for a bend along a"
            f" routed run (a tray corner), not at the module. Diameter and weight per metre: {_AOC_NVIDIA}"
        ),
    ),
    "FIB-OM4": CableFacts(od_mm=_ZIPCORD_OD_MM, min_bend_radius_mm=FIBRE_CORD_MIN_BEND_RADIUS_MM, source=_FIBRE_CORD),
    "FIB-OS2": CableFacts(od_mm=_ZIPCORD_OD_MM, min_bend_radius_mm=FIBRE_CORD_MIN_BEND_RADIUS_MM, source=_FIBRE_CORD),
}
"""Media part number (`loopline.domain.media`) -> facts. All are data cables (`signal_only`)."""


def _optic(max_w: float, source: str) -> OpticFacts:
    return OpticFacts(max_w=max_w, source=source)


OPTIC_FACTS: dict[str, OpticFacts] = {
    # Parts without a sourced figure: max_w None (the checks say which part lacks it).
    **{f"XCVR-{g}-{kind}": OpticFacts() for g in _SPEEDS for kind in ("SR", "LR")},
    **{f"XCVR-{g}-DR": OpticFacts() for g in ("100G", "200G", "400G", "800G")},
    **{f"AOC-{g}": OpticFacts() for g in _SPEEDS},
    **{f"ACC-{g}": OpticFacts() for g in ("10G", "25G", "40G", "50G", "100G")},
    **{f"AEC-{g}": OpticFacts() for g in ("200G", "400G", "800G")},
    "XCVR-10G-SR": _optic(
        1.0,
        "HDV Fiber SFP+-10G-SR (10GBASE-SR SFP+) datasheet, https://www.hdv-fiber.com/fa/"
        "10g-spf-850nm-mode-dual-fiber-300m-optical-module-sfp-10g-sr.html: power dissipation 1 W.",
    ),
    "XCVR-10G-LR": _optic(
        1.0,
        "HDV Fiber SFP+-10G-L10 (10GBASE-LR SFP+, 10 km) datasheet, https://hdv-fiber.com/"
        "10g-sfp-dual-fiber-sm-1310nm-10km-10g-lr-optical-transceiver-module-compatible-with-cisco-switch.html:"
        " power dissipation 1 W.",
    ),
    "XCVR-25G-SR": _optic(
        1.0,
        "Plexda SFP-25G-SR (25GBASE-SR SFP28) datasheet, http://chinasgd.com/en/25gsfp28sr/312.html:"
        " power consumption less than 1.0 W.",
    ),
    "XCVR-25G-LR": _optic(
        1.2,
        "Beijing Peilian 25G SFP28 1310 nm 10 km (25GBASE-LR) datasheet,"
        " https://beijingpeilian.com/en/25g40g100ghighspeedopticalmodu/50-132.html:"
        " power consumption < 1.2 W.",
    ),
    "XCVR-40G-SR": _optic(
        1.5,
        "Grass Valley QSFP-40G-SR4 (40GBASE-SR4 QSFP+) specifications,"
        " https://www.grassvalley.com/products/router-control-systems/"
        "qsfp-pluggable-short-range-transceiver-module-sr4/: power consumption 1.5 W.",
    ),
    "XCVR-40G-LR": _optic(
        3.5,
        "FastFOM FF-QSFP+LR4 (40GBASE-LR4 QSFP+, 10 km) datasheet,"
        " https://www.fastfom.net/product/qsfp-lr4-40g-transceiver-fiber-module/: power dissipation < 3.5 W.",
    ),
    "XCVR-50G-LR": _optic(
        2.0,
        "FluxLight SFP-50G-LR-A-FL (50GBASE-LR SFP56, 10 km) datasheet,"
        " https://fluxlight.com/content/Tech-Docs/Arista%20SFP-50G-LR-A-FL%20Datasheet.html:"
        " power consumption lower than 2 W.",
    ),
    "XCVR-100G-SR": _optic(
        3.5,
        "FTTA 100G-QSFP28-SR4 (100GBASE-SR4) datasheet, https://www.fttacable.com/100g-qsfp28-sr4.html:"
        " power consumption 3.5 W (max).",
    ),
    "XCVR-100G-DR": _optic(
        3.5,
        "FluxLight QSFP-100G-DR-S-FL (100GBASE-DR QSFP28, 500 m) datasheet,"
        " https://www.fluxlight.com/content/Tech-Docs/Cisco%20QSFP-100G-DR-S-FL%20Datasheet.html:"
        " maximum power consumption 3.5 W.",
    ),
    "XCVR-100G-LR": _optic(
        4.0,
        "RQS-103G-LR4-LW (100GBASE-LR4 QSFP28, 10 km) datasheet,"
        " https://dtechtrading.com.np/sfp-100g-lr4-dual-lc-sm-ddm: power dissipation 4.0 W max.",
    ),
    "XCVR-200G-SR": _optic(
        5.5,
        "TSCOM TSQS-852HG01-MC (200G QSFP56 SR4, 100 m on OM4) product page,"
        " https://pt.china-tscom.com/products/200g-qsfp56-sr4-100m: power dissipation < 5.5 W.",
    ),
    "XCVR-200G-DR": _optic(
        5.5,
        "Gigalight GQS-SPO201-DR4CZ (200GBASE-DR4 QSFP56, 500 m) datasheet Rev. V0 (2020),"
        " https://pdfslide.us/documents/200gbase-dr4-qsfp56-optical-transceiver-module-gqs-en-550322015-"
        "en-550242010a12015.html: power dissipation < 5.5 W.",
    ),
    "XCVR-400G-SR": _optic(
        9.0,
        "NVIDIA MMA1Z00-NS400 (400G SR4, QSFP112; the 400G form factor here is QSFP-DD) product"
        " specifications, https://docs.nvidia.com/networking/display/MMA1Z00NS400T/Overview:"
        " 9 W maximum in 400 Gb/s mode.",
    ),
    "XCVR-400G-DR": _optic(
        9.0,
        "NVIDIA MMS4X00-NS400 (400G DR4, single-port OSFP) product specifications,"
        " https://docs.nvidia.com/networking/display/mms4x00ns400/overview: 9 W maximum in 400 Gb/s mode.",
    ),
    "XCVR-400G-LR": _optic(
        12.0,
        "FiberWDM RQ-400G-LR4 (400G QSFP-DD LR4, 10 km) datasheet,"
        " https://fiberwdm.com/400g-qsfp-dd-lr4-10km-optical-transceiver_p221.html:"
        " power consumption 12 W max.",
    ),
    "XCVR-800G-SR": _optic(
        15.0,
        "NVIDIA MMA4Z00-NS-T (800G twin-port OSFP, 2x400G multimode SR4) product specifications,"
        " https://docs.nvidia.com/networking/display/800gmma4z00nst/overview: 15 W in all configurations.",
    ),
    "XCVR-800G-DR": _optic(
        17.0,
        "NVIDIA MMS4X00-NS-T (800G twin-port OSFP, 2x400G single-mode DR4) product specifications,"
        " https://docs.nvidia.com/networking/display/800gmms4x00nst/overview: 17 W in all configurations.",
    ),
    "AOC-25G": _optic(
        1.0,
        "Oikwan SFP28-AOC-<length> 25 Gb/s SFP28 active optical cable datasheet,"
        " http://en.oikwan.com.cn/product/guiyang_874.html: maximum power consumption per end 1.0 W.",
    ),
    "AOC-40G": _optic(
        1.5,
        "PHQAOC768XX 40G QSFP+ active optical cable specification,"
        " https://fttd.net/product/specification/PHQAOC768XX.html: power consumption 1.5 W max"
        " (each end is a QSFP+ module; read as per end).",
    ),
    "AEC-200G": _optic(
        3.5,
        "NVIDIA MCA1J00-H0xxE (HDR 200Gb/s QSFP56 active copper cable) product specifications,"
        " https://docs.nvidia.com/networking/display/mca1j00h0xxe200/specifications: power consumption"
        " 3.5 W maximum at a 200 Gb/s end (2.5 W at an HDR100 100 Gb/s end).",
    ),
    "AEC-800G": _optic(
        1.5,
        "NVIDIA LinkX 100G-PAM4 product line overview (800G twin-port OSFP LACC, linear active copper,"
        " 3-5 m), https://docs.nvidia.com/networking/display/400g100gpam4ovpub/linkx-100g-pam4-product-line-overview:"
        " 1.5 W on the 800G end.",
    ),
    "AOC-200G": _optic(
        5.0,
        "Alpha Bridge AQS56-F-xx-AK 200G QSFP56 active optical cable datasheet,"
        " https://alphabridge.tech/products/dac-aoc/aoc-cable-4/200g-qsfp56-aoc/aqs56-f-03-ak-2: maximum power"
        " consumption 5 W (each end is a QSFP56 module; read as per end).",
    ),
    "AOC-400G": _optic(
        10.0,
        "FluxLight QSFP56-DD-QSFP56-DD-AOC-xM-FL (400G QSFP-DD AOC) datasheet,"
        " https://fluxlight.com/content/Tech-Docs/400GBase%20QSFP56-DD-QSFP56-DD%20AOC.html:"
        " power dissipation < 10 W per cable end.",
    ),
    "AOC-100G": _optic(
        2.5,
        "Oikwan QSFP28-AOC-<length> 100 Gb/s QSFP28 active optical cable datasheet,"
        " http://en.oikwan.com.cn/product/bazhong_866.html: power dissipation < 2.5 W per cable end.",
    ),
}
"""Transceiver, AOC or active copper part number -> watts per end."""

PANEL_FACTS: dict[str, DeviceFacts] = {}
"""Patch panel model (`structured.catalog.PANELS` name) -> facts. None has a sourced weight yet, so the
weight check names each panel model as missing its weight_kg (add a model here, with its datasheet, to
count it). Searched and found without a weight: the NetBox device-type library's YAML for FS FHD-1UFCE /
FHD-2UFCE / FHU-FPP48FLCSMF and Corning EDGE-01U (and nautobot's fork of EDGE-01U), and
roc-ops/Portrayal's drawings of FHD-1UFCE / FHD-2UFCE read off FS's datasheet (dimensions only)."""

CASSETTE_FACTS: dict[str, DeviceFacts] = {}
"""Cassette or adapter plate (`structured.catalog.CASSETTES` name) -> facts; none sourced yet: the NetBox
module-type YAML of the FS FHD and Corning EDGE modules and Portrayal's FHD cassette drawings give no
weight."""
# 44 lb/ft -> kg/m: x 0.45359237 kg/lb / 0.3048 m/ft = 65.479 kg/m.
DEFAULT_TRAY: TraySpec | None = TraySpec(width_mm=305, usable_depth_mm=102, load_kg_per_m=65.5)
DEFAULT_TRAY_SOURCE = (
    "Legrand Cablofil wire mesh tray, 4 x 12 in: Legrand, Cablofil Loading"
    " Performance, https://www.legrand.us/cablofil/tech_resources/loading-performance.aspx"
    " (recommended cable load of the 4x12 tray on 8 ft support spans, tested to NEMA VE-1 /"
    " IEC 61537: 44 lb/ft = 65.5 kg/m). Width 12 in = 305 mm; usable depth taken as the 4 in"
    " (102 mm) side height."
)
DEFAULT_FLOOR_LOAD_KG_M2: float | None = 1223.7
DEFAULT_FLOOR_LOAD_SOURCE = (
    "ANSI/TIA-942, floor loading capacity for superimposed live load of a Rated-3 data centre:"
    " 12 kPa (250 lbf/ft2), as stated by EPI (TIA-942 certification body),"
    " https://www.epi-ap.com/content/28/641/The_data_centre_is_not_meeting_the_12kPa_floor_loading"
    "_capability_as_per_TIA-942_Rated-3_Will_this_data_centre_fail_the_certification? (the same"
    " 12.0 kPa is TIA-569's minimum for equipment rooms, as quoted by the US GSA P100,"
    " http://www.gsa.gov/portal/content/101221); the TIA-942 section number is not confirmed here;"
    " 12,000 N/m2 / 9.80665 m/s2 = 1,223.7 kg/m2."
)
