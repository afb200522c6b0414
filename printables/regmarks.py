"""Where a cutting machine looks on a sheet: Silhouette's registration marks, Cricut's area.

The geometry the sheet layout (:mod:`printables.layout`: the cards stay inside it and clear of
the marks) and the cut files (:mod:`printables.cutter`, whose docstring gives the sources and
decisions) both need, in the page frame (origin bottom-left, y up, mm).
"""

from __future__ import annotations

from dataclasses import dataclass

from printables.geometry import Rect

MARK_CLEARANCE = 5.0
"""Clear space between a registration mark (or Design Space's image area) and any sheet
furniture (heading, ruler, note), mm: the machine's optical sensor finds a mark by the blank
paper around it, so nothing is printed within this distance of a mark or between a mark
and the paper edges it sits at (:func:`furniture_zones`)."""
CRICUT_AREA = (171.45, 234.95)
"""Design Space's largest Print Then Cut image (6.75 x 9.25 in) in portrait, mm."""


@dataclass(frozen=True, kw_only=True)
class RegistrationMarks:
    """Silhouette Studio Type 1 registration marks (sources: :mod:`printables.cutter`), mm.

    Attributes:
        inset: distance of the marks' outer corners from the paper edges.
        length: arm length of the L marks.
        thickness: line width of the L marks.
        square: edge of the filled top-left square.
        padding: clear space around each mark's square.
        corners: 3 (Type 1: square top-left, L marks top-right and bottom-left) or 4 (an L
            mark at the bottom-right too, the four-mark registration of the CAMEO 5,
            silhouette-card-maker#162).
    """

    inset: float = 10.0
    length: float = 20.0
    thickness: float = 0.5
    square: float = 5.0
    padding: float = 1.5
    corners: int = 3

    def shapes(self, page_width: float, page_height: float) -> tuple[Rect, ...]:
        """The filled rectangles that make the marks: the top-left square, then the
        top-right and bottom-left L marks (two arms each), and with four corners the
        bottom-right L mark."""
        i, n, t, w, h = self.inset, self.length, self.thickness, page_width, page_height
        shapes: tuple[Rect, ...] = (
            Rect(x=i, y=h - i - self.square, width=self.square, height=self.square),
            Rect(x=w - i - n, y=h - i - t, width=n, height=t),
            Rect(x=w - i - t, y=h - i - n, width=t, height=n),
            Rect(x=i, y=i, width=n, height=t),
            Rect(x=i, y=i, width=t, height=n),
        )
        if self.corners == 4:
            shapes += (
                Rect(x=w - i - n, y=i, width=n, height=t),
                Rect(x=w - i - t, y=i, width=t, height=n),
            )
        return shapes

    def keep_out(self, page_width: float, page_height: float) -> tuple[Rect, ...]:
        """The squares around the marks where nothing may be printed."""
        i, n, p, w, h = self.inset, self.length, self.padding, page_width, page_height
        edge = n + 2 * p
        boxes: tuple[Rect, ...] = (
            Rect(x=i - p, y=h - i - n - p, width=edge, height=edge),
            Rect(x=w - i - n - p, y=h - i - n - p, width=edge, height=edge),
            Rect(x=i - p, y=i - p, width=edge, height=edge),
        )
        if self.corners == 4:
            boxes += (Rect(x=w - i - n - p, y=i - p, width=edge, height=edge),)
        return boxes

    def zones(self, page_width: float, page_height: float) -> tuple[Rect, ...]:
        """The keep-out zone of each mark for sheet furniture: from the paper corner the
        mark sits in to :data:`MARK_CLEARANCE` beyond the mark, mm."""
        i, n, c, w, h = self.inset, self.length, MARK_CLEARANCE, page_width, page_height
        square = i + self.square + c
        arm = i + n + c
        zones: tuple[Rect, ...] = (
            Rect(x=0.0, y=h - square, width=square, height=square),
            Rect(x=w - arm, y=h - arm, width=arm, height=arm),
            Rect(x=0.0, y=0.0, width=arm, height=arm),
        )
        if self.corners == 4:
            zones += (Rect(x=w - arm, y=0.0, width=arm, height=arm),)
        return zones

    def cut_area(self, page_width: float, page_height: float) -> Rect:
        """The rectangle the marks span: cards must lie inside it."""
        return Rect(
            x=self.inset,
            y=self.inset,
            width=page_width - 2 * self.inset,
            height=page_height - 2 * self.inset,
        )

    def studio_settings(self) -> str:
        """The values to type into Silhouette Studio's Registration Marks panel."""
        kind = "Type 1" if self.corners == 3 else "4 marks (CAMEO 5)"
        return (
            f"Silhouette Studio registration marks: {kind}, length {self.length:g} mm, "
            f"thickness {self.thickness:g} mm, inset {self.inset:g} mm"
        )


SILHOUETTE_MARKS = RegistrationMarks()
"""The marks printed for ``--cutter silhouette``."""
SILHOUETTE_4_MARKS = RegistrationMarks(corners=4)
"""The marks printed for ``--cutter silhouette-4``: Type 1 and a fourth L mark."""


def marks_for(cutter: str) -> RegistrationMarks | None:
    """The registration marks printed for ``cutter``; None for ``none`` and ``cricut``."""
    return {"silhouette": SILHOUETTE_MARKS, "silhouette-4": SILHOUETTE_4_MARKS}.get(cutter)


def cricut_area(page_width: float, page_height: float) -> Rect:
    """Design Space's Print Then Cut image area, centred on the page and turned with it."""
    w, h = CRICUT_AREA if page_height >= page_width else CRICUT_AREA[::-1]
    return Rect(x=(page_width - w) / 2, y=(page_height - h) / 2, width=w, height=h)


def furniture_zones(cutter: str, page_width: float, page_height: float) -> tuple[Rect, ...]:
    """Where no heading, ruler or note may be printed for ``cutter`` (page frame, mm): each
    Silhouette mark's zone (:meth:`RegistrationMarks.zones`), or for Cricut the Print Then
    Cut image area grown by :data:`MARK_CLEARANCE` (Design Space prints its own frame around
    that area, and anything inside it would be traced as a cut); none for ``none``."""
    marks = marks_for(cutter)
    if marks is not None:
        return marks.zones(page_width, page_height)
    if cutter == "cricut":
        return (cricut_area(page_width, page_height).inset(-MARK_CLEARANCE),)
    return ()
