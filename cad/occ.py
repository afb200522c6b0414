"""The few OpenCASCADE operations the kit needs, on plain ``TopoDS_Shape`` values (OCP).

Units: mm, mm^2, mm^3. Frame: the part frame of ``cad.parts`` (bed face on Z = 0).

Why OCP directly and not CadQuery's API: CadQuery is a convenience layer over the same kernel
binding (OCP); importing it also loads VTK, ezdxf and friends (a large part of a cold build;
``benchmarks/asteroids_build.py`` measures it) and installs about 1 GB that the kit never uses. The operations
below are the ones CadQuery would call for us (``BRepAlgoAPI_*`` with many tools in one call,
``BRepOffsetAPI_MakeOffset``, ``BRepFilletAPI_MakeChamfer``, ``BRepMesh_IncrementalMesh``,
``StlAPI_Writer``), with the same arguments.

Rules kept from ARCHITECTURE.md (*CAD*): all tools of a boolean go into one call (never a loop
of cuts, never a compound of overlapping tools), every part is checked to be one valid solid
with one shell, meshes use an absolute deflection.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from OCP.APIHeaderSection import APIHeaderSection_MakeHeader
from OCP.Bnd import Bnd_Box
from OCP.BRepAlgoAPI import (
    BRepAlgoAPI_BooleanOperation,
    BRepAlgoAPI_Common,
    BRepAlgoAPI_Cut,
    BRepAlgoAPI_Fuse,
)
from OCP.BRepBndLib import BRepBndLib
from OCP.BRepBuilderAPI import (
    BRepBuilderAPI_MakeFace,
    BRepBuilderAPI_MakePolygon,
    BRepBuilderAPI_Transform,
)
from OCP.BRepCheck import BRepCheck_Analyzer
from OCP.BRepExtrema import BRepExtrema_DistShapeShape
from OCP.BRepFilletAPI import BRepFilletAPI_MakeChamfer
from OCP.BRepGProp import BRepGProp
from OCP.BRepMesh import BRepMesh_IncrementalMesh
from OCP.BRepOffsetAPI import BRepOffsetAPI_MakeOffset
from OCP.BRepPrimAPI import (
    BRepPrimAPI_MakeBox,
    BRepPrimAPI_MakeCylinder,
    BRepPrimAPI_MakePrism,
    BRepPrimAPI_MakeRevol,
)
from OCP.GeomAbs import GeomAbs_Intersection
from OCP.gp import gp_Ax1, gp_Ax2, gp_Dir, gp_Pnt, gp_Trsf, gp_Vec
from OCP.GProp import GProp_GProps
from OCP.IFSelect import IFSelect_RetDone
from OCP.Interface import Interface_Static
from OCP.Message import Message, Message_Gravity
from OCP.ShapeUpgrade import ShapeUpgrade_UnifySameDomain
from OCP.StepBasic import StepBasic_Product
from OCP.STEPControl import STEPControl_AsIs, STEPControl_Writer
from OCP.StepRepr import StepRepr_NextAssemblyUsageOccurrence
from OCP.StlAPI import StlAPI_Writer
from OCP.TCollection import TCollection_HAsciiString
from OCP.TopAbs import (
    TopAbs_EDGE,
    TopAbs_FACE,
    TopAbs_ShapeEnum,
    TopAbs_SHELL,
    TopAbs_SOLID,
    TopAbs_WIRE,
)
from OCP.TopExp import TopExp
from OCP.TopoDS import TopoDS, TopoDS_Face, TopoDS_Shape, TopoDS_Wire
from OCP.TopTools import TopTools_IndexedMapOfShape, TopTools_ListOfShape

Point2 = tuple[float, float]


class GeometryError(RuntimeError):
    """The kernel did not produce the expected shape (a bug in a builder, never bad input)."""


# --- building -------------------------------------------------------------------------------


def polygon_wire(points: Sequence[Point2], z: float = 0.0) -> TopoDS_Wire:
    """A closed polygon wire in the plane ``Z = z`` (mm)."""
    maker = BRepBuilderAPI_MakePolygon()
    for x, y in points:
        maker.Add(gp_Pnt(float(x), float(y), z))
    maker.Close()
    return maker.Wire()


def offset_wire(wire: TopoDS_Wire, offset: float) -> TopoDS_Wire:
    """Offset a closed planar wire by ``offset`` mm (+ grows a CCW outline), sharp corners.

    Raises:
        GeometryError: the offset does not give exactly one wire.
    """
    if abs(offset) < 1e-12:
        return wire
    maker = BRepOffsetAPI_MakeOffset()
    maker.Init(GeomAbs_Intersection)
    maker.AddWire(wire)
    maker.Perform(offset)
    wires = list(_children(maker.Shape(), TopAbs_WIRE))
    if len(wires) != 1:
        raise GeometryError(f"offset by {offset:g} mm gave {len(wires)} wires")
    return TopoDS.Wire_s(wires[0])


def polygon_face(
    points: Sequence[Point2], offset: float = 0.0, holes: Sequence[Sequence[Point2]] = ()
) -> TopoDS_Face:
    """A planar face on Z = 0 from a CCW polygon grown by ``offset`` mm; ``holes`` (CCW) are
    offset by ``-offset`` so that the face as a whole grows or shrinks uniformly."""
    maker = BRepBuilderAPI_MakeFace(offset_wire(polygon_wire(points), offset), True)
    for hole in holes:
        inner = offset_wire(polygon_wire(hole), -offset)
        maker.Add(TopoDS.Wire_s(inner.Reversed()))
    return maker.Face()


def prism(face: TopoDS_Shape, z0: float, z1: float) -> TopoDS_Shape:
    """Extrude a face lying on Z = 0 into a solid from ``z0`` to ``z1`` (mm)."""
    solid = BRepPrimAPI_MakePrism(face, gp_Vec(0.0, 0.0, z1 - z0)).Shape()
    return moved(solid, z=z0)


def cylinder(diameter: float, x: float, y: float, z0: float, z1: float) -> TopoDS_Shape:
    """A vertical cylinder of ``diameter`` mm centred on (x, y) from ``z0`` to ``z1``."""
    axis = gp_Ax2(gp_Pnt(x, y, z0), gp_Dir(0.0, 0.0, 1.0))
    return BRepPrimAPI_MakeCylinder(axis, diameter / 2, z1 - z0).Shape()


def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> TopoDS_Shape:
    """An axis-aligned box between two corners (mm)."""
    return BRepPrimAPI_MakeBox(gp_Pnt(x0, y0, z0), gp_Pnt(x1, y1, z1)).Shape()


def revolve(profile: Sequence[Point2]) -> TopoDS_Shape:
    """Revolve a closed (radius, z) polygon in the XZ plane once about the Z axis."""
    wire = BRepBuilderAPI_MakePolygon()
    for r, z in profile:
        wire.Add(gp_Pnt(float(r), 0.0, float(z)))
    wire.Close()
    face = BRepBuilderAPI_MakeFace(wire.Wire(), True).Face()
    axis = gp_Ax1(gp_Pnt(0.0, 0.0, 0.0), gp_Dir(0.0, 0.0, 1.0))
    return BRepPrimAPI_MakeRevol(face, axis).Shape()


def moved(shape: TopoDS_Shape, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> TopoDS_Shape:
    """A copy of ``shape`` translated by (x, y, z) mm (the geometry is shared, not copied)."""
    if x == y == z == 0:
        return shape
    trsf = gp_Trsf()
    trsf.SetTranslation(gp_Vec(x, y, z))
    return BRepBuilderAPI_Transform(shape, trsf, False).Shape()


def chamfer_bottom(shape: TopoDS_Shape, size: float) -> TopoDS_Shape:
    """A 45-degree chamfer of ``size`` mm on every edge lying at the lowest Z (no top chamfer).

    Raises:
        GeometryError: the chamfer failed.
    """
    return chamfer_bottom_and_top(shape, size, 0.0)


def unify_faces(shape: TopoDS_Shape) -> TopoDS_Shape:
    """``shape`` with the faces that lie on one surface merged (and their edges), as a boolean
    union leaves them split where its arguments met (ShapeUpgrade_UnifySameDomain)."""
    unify = ShapeUpgrade_UnifySameDomain(shape, True, True, False)
    unify.Build()
    return unify.Shape()


def chamfer_bottom_and_top(shape: TopoDS_Shape, bottom: float, top: float) -> TopoDS_Shape:
    """45-degree chamfers of ``bottom`` mm on the edges lying at the lowest Z and of ``top`` mm
    on those at the highest Z (what CadQuery's ``edges("<Z")`` / ``edges(">Z")`` select).

    Raises:
        GeometryError: the chamfer failed.
    """
    for size, lowest in ((bottom, True), (top, False)):
        if size <= 0:
            continue
        low, high = z_range(shape)
        level = low if lowest else high
        maker = BRepFilletAPI_MakeChamfer(shape)
        for edge in _children(shape, TopAbs_EDGE):
            e_low, e_high = z_range(edge)
            if abs(e_low - level) < 1e-6 and abs(e_high - level) < 1e-6:
                maker.Add(size, TopoDS.Edge_s(edge))
        maker.Build()
        if not maker.IsDone():
            raise GeometryError(f"chamfer of {size:g} mm failed")
        shape = maker.Shape()
    return shape


def cut(base: TopoDS_Shape, *tools: TopoDS_Shape) -> TopoDS_Shape:
    """``base`` minus all ``tools`` in one boolean operation."""
    return _boolean(BRepAlgoAPI_Cut(), base, tools)


def common(base: TopoDS_Shape, *tools: TopoDS_Shape) -> TopoDS_Shape:
    """The intersection of ``base`` with ``tools``."""
    return _boolean(BRepAlgoAPI_Common(), base, tools)


def fuse(base: TopoDS_Shape, *tools: TopoDS_Shape) -> TopoDS_Shape:
    """The union of ``base`` and ``tools`` in one boolean operation."""
    return _boolean(BRepAlgoAPI_Fuse(), base, tools)


def _boolean(
    op: BRepAlgoAPI_BooleanOperation, base: TopoDS_Shape, tools: Sequence[TopoDS_Shape]
) -> TopoDS_Shape:
    arguments, tool_list = TopTools_ListOfShape(), TopTools_ListOfShape()
    arguments.Append(base)
    for tool in tools:
        tool_list.Append(tool)
    op.SetArguments(arguments)
    op.SetTools(tool_list)
    op.Build()
    if not op.IsDone():
        raise GeometryError(f"{type(op).__name__} failed")
    return op.Shape()


# --- checking and measuring -----------------------------------------------------------------


def solids(shape: TopoDS_Shape) -> list[TopoDS_Shape]:
    """The solids in ``shape``."""
    return list(_children(shape, TopAbs_SOLID))


def faces(shape: TopoDS_Shape) -> list[TopoDS_Face]:
    """The faces in ``shape``."""
    return [TopoDS.Face_s(f) for f in _children(shape, TopAbs_FACE)]


def single_solid(shape: TopoDS_Shape, name: str) -> TopoDS_Shape:
    """``shape`` as its one solid, checked: valid, one solid, one shell.

    Raises:
        GeometryError: anything else (names the part, solids, shells, validity).
    """
    found = solids(shape)
    shells = sum(len(list(_children(s, TopAbs_SHELL))) for s in found)
    valid = BRepCheck_Analyzer(shape).IsValid()
    if len(found) != 1 or shells != 1 or not valid:
        raise GeometryError(
            f"{name}: expected one valid solid with one shell, got {len(found)} solid(s), "
            f"{shells} shell(s), valid={valid}"
        )
    return found[0]


def volume(shape: TopoDS_Shape) -> float:
    """Enclosed volume in mm^3 (0 for a shape without solids)."""
    props = GProp_GProps()
    BRepGProp.VolumeProperties_s(shape, props)
    return abs(props.Mass())


def bounds(shape: TopoDS_Shape) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Exact axis-aligned bounding box ``((xmin, ymin, zmin), (xmax, ymax, zmax))`` in mm."""
    bbox = Bnd_Box()
    BRepBndLib.AddOptimal_s(shape, bbox, False, False)
    x0, y0, z0, x1, y1, z1 = bbox.Get()
    return (x0, y0, z0), (x1, y1, z1)


def z_range(shape: TopoDS_Shape) -> tuple[float, float]:
    """Lowest and highest Z of ``shape`` (mm)."""
    (_, _, low), (_, _, high) = bounds(shape)
    return low, high


def distance(a: TopoDS_Shape, b: TopoDS_Shape) -> float:
    """Exact minimum distance between two shapes (mm); 0 when they touch or overlap."""
    measure = BRepExtrema_DistShapeShape(a, b)
    if not measure.IsDone():
        raise GeometryError("distance computation failed")
    return measure.Value()


def section(shape: TopoDS_Shape, z: float) -> TopoDS_Shape:
    """The horizontal section of ``shape`` at height ``z`` (mm) as planar faces."""
    low, high = bounds(shape)
    pad = 10.0
    plane = BRepBuilderAPI_MakeFace(
        polygon_wire(
            [
                (low[0] - pad, low[1] - pad),
                (high[0] + pad, low[1] - pad),
                (high[0] + pad, high[1] + pad),
                (low[0] - pad, high[1] + pad),
            ],
            z,
        ),
        True,
    ).Face()
    return common(shape, plane)


# --- meshing --------------------------------------------------------------------------------


def write_stl(shape: TopoDS_Shape, path: Path, tolerance: float, angular_tolerance: float) -> None:
    """Tessellate ``shape`` with an absolute deflection and write a binary STL.

    Args:
        shape: the solid.
        path: destination file (overwritten).
        tolerance: linear deflection in mm.
        angular_tolerance: angular deflection in rad.

    Raises:
        OSError: the file could not be written.
    """
    BRepMesh_IncrementalMesh(shape, tolerance, False, angular_tolerance, True)
    writer = StlAPI_Writer()
    writer.ASCIIMode = False
    if not writer.Write(shape, str(path)) or not path.exists():
        raise OSError(f"could not write STL {path}")


STEP_TIME_STAMP = "2000-01-01T00:00:00"
"""The time stamp in every STEP file's header where ``SOURCE_DATE_EPOCH`` is not set."""


def step_time_stamp() -> str:
    """The STEP header's time stamp: ``SOURCE_DATE_EPOCH`` (seconds since 1970, UTC) as ISO
    8601, or :data:`STEP_TIME_STAMP` where it is unset or not a whole number."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(epoch)))
    return STEP_TIME_STAMP


def write_step(shape: TopoDS_Shape, path: Path, name: str) -> None:
    """Write ``shape`` as a STEP file (AP214) in millimetres, its product named ``name``.

    The exact B-rep (not a mesh): what CadQuery, FreeCAD or Fusion open to remix a part.
    The writer takes the unit from the static parameter ``write.step.unit``; it names every
    product "Open CASCADE STEP translator <version> <n>", so the product entity is renamed in
    the transferred model before writing. Its transfer statistics go to the default
    messenger's printers, which are kept to failures.

    The same shape gives the same bytes (issue 30): the header's ``FILE_NAME`` carries the
    part's file name and :data:`STEP_TIME_STAMP` instead of the time of writing (ISO 10303-21
    requires a time stamp but gives it no meaning for the data; ``SOURCE_DATE_EPOCH`` sets
    it, as for other reproducible builds), the originating system is Tablesmith, and the
    assembly occurrences of a compound are numbered from 1 in each file.

    Args:
        shape: the solid.
        path: destination file (overwritten).
        name: product name (and id) shown by CAD programs: the part name.

    Raises:
        OSError: the transfer or the file write failed.
    """
    for printer in Message.DefaultMessenger_s().Printers():
        printer.SetTraceLevel(Message_Gravity.Message_Fail)
    Interface_Static.SetCVal_s("write.step.unit", "MM")
    Interface_Static.SetCVal_s("write.step.schema", "AP214IS")
    writer = STEPControl_Writer()
    if writer.Transfer(shape, STEPControl_AsIs) != IFSelect_RetDone:
        raise OSError(f"could not convert {name} to STEP")
    model = writer.Model()
    header = APIHeaderSection_MakeHeader(model)
    header.SetName(TCollection_HAsciiString(path.name))
    header.SetTimeStamp(TCollection_HAsciiString(step_time_stamp()))
    header.SetOriginatingSystem(TCollection_HAsciiString("Tablesmith"))
    header.SetAuthorValue(1, TCollection_HAsciiString(""))  # not 'Author', a placeholder
    header.SetOrganizationValue(1, TCollection_HAsciiString(""))
    occurrences = 0
    for index in range(1, model.NbEntities() + 1):
        entity = model.Value(index)
        if isinstance(entity, StepBasic_Product):
            entity.SetName(TCollection_HAsciiString(name))
            entity.SetId(TCollection_HAsciiString(name))
        elif isinstance(entity, StepRepr_NextAssemblyUsageOccurrence):
            # a compound (a symbol layer of two pieces) is an assembly whose occurrences the
            # writer numbers with a counter of the whole process: number them per file
            occurrences += 1
            entity.SetId(TCollection_HAsciiString(str(occurrences)))
    if writer.Write(str(path)) != IFSelect_RetDone or not path.exists():
        raise OSError(f"could not write STEP {path}")


def _children(shape: TopoDS_Shape, kind: TopAbs_ShapeEnum) -> Iterator[TopoDS_Shape]:
    """The distinct sub-shapes of ``kind`` (an edge shared by two faces once)."""
    found = TopTools_IndexedMapOfShape()
    TopExp.MapShapes_s(shape, kind, found)
    for index in range(1, found.Extent() + 1):
        yield found.FindKey(index)
