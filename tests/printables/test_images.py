"""Card art prints upright (EXIF orientation) and in sRGB (ICC profiles), read back from the
rendered page's pixels with pypdfium2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms

from games.cards.deck import parse_deck_text
from games.registry import CARD_GAMES
from printables.duplex import Duplex
from printables.images import ORIENTATION_MATRICES, _prepare, prepare_image
from printables.render import RenderOptions, render_deck
from printables.units import MM
from tests.printables.conftest import image_xobjects

GHOSTSCRIPT_ICC = Path("/usr/share/color/icc/ghostscript")
A98 = GHOSTSCRIPT_ICC / "a98.icc"
CMYK = GHOSTSCRIPT_ICC / "default_cmyk.icc"
needs_profiles = pytest.mark.skipif(
    not (A98.exists() and CMYK.exists()),
    reason="needs Ghostscript's ICC profiles (Debian libgs-common: a98.icc, default_cmyk.icc)",
)

QUADRANTS = {  # the upright picture: which colour is where
    "top-left": (230, 20, 20),
    "top-right": (20, 200, 20),
    "bottom-left": (20, 20, 230),
    "bottom-right": (240, 220, 20),
}


@pytest.fixture(autouse=True)
def art_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLESMITH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def upright_picture(width: int = 300, height: int = 400) -> Image.Image:
    """A portrait picture of four coloured quadrants (see QUADRANTS)."""
    picture = Image.new("RGB", (width, height))
    half_w, half_h = width // 2, height // 2
    for name, colour in QUADRANTS.items():
        x = 0 if name.endswith("left") else half_w
        y = 0 if name.startswith("top") else half_h
        picture.paste(colour, (x, y, x + half_w, y + half_h))
    return picture


STORED = {  # how a camera stores the upright picture for each orientation tag
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,  # viewer turns it 90 degrees clockwise
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def phone_photo(path: Path, orientation: int) -> Path:
    """A JPEG whose stored pixels need EXIF ``orientation`` to show the upright picture."""
    picture = upright_picture()
    method = STORED[orientation]
    stored = picture.transpose(method) if method is not None else picture
    exif = Image.Exif()
    exif[0x0112] = orientation
    stored.save(path, "JPEG", quality=95, exif=exif.tobytes())
    return path


def render_pixels(pdf: Path, dpi: int = 100) -> np.ndarray:
    page = pdfium.PdfDocument(str(pdf))[0]
    return np.asarray(page.render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)


def centroids(pixels: np.ndarray, tolerance: int = 45) -> dict[str, tuple[float, float]]:
    """Centre (x, y from the top-left, pixels) of each quadrant colour found on the page."""
    found = {}
    for name, colour in QUADRANTS.items():
        near = np.all(np.abs(pixels - np.array(colour)) <= tolerance, axis=2)
        ys, xs = np.nonzero(near)
        assert len(xs) > 50, f"{name} colour {colour} not on the page"
        found[name] = (float(xs.mean()), float(ys.mean()))
    return found


def assert_upright(found: dict[str, tuple[float, float]]) -> None:
    (tlx, tly), (trx, try_) = found["top-left"], found["top-right"]
    (blx, bly), (brx, bry) = found["bottom-left"], found["bottom-right"]
    assert tlx < trx and blx < brx, found  # left colours left of right ones
    assert tly < bly and try_ < bry, found  # top colours above bottom ones


@pytest.mark.parametrize("orientation", sorted(STORED))
def test_every_exif_orientation_draws_upright(tmp_path: Path, orientation: int) -> None:
    from reportlab.pdfgen import canvas

    art = prepare_image(phone_photo(tmp_path / f"o{orientation}.jpg", orientation))
    assert art.size == (300, 400) and not art.converted  # the camera's JPEG, unchanged
    assert art.matrix == ORIENTATION_MATRICES[orientation]
    pdf = tmp_path / "o.pdf"
    c = canvas.Canvas(str(pdf), pagesize=(60 * MM, 80 * MM))
    art.draw(c, 0, 0, 60 * MM, 80 * MM)
    c.save()
    pixels = render_pixels(pdf)
    found = centroids(pixels)
    assert_upright(found)
    h, w = pixels.shape[:2]  # each quadrant fills its quarter of the page
    assert found["top-left"] == pytest.approx((w / 4, h / 4), abs=3)
    assert found["bottom-right"] == pytest.approx((3 * w / 4, 3 * h / 4), abs=3)


def deck_with_art(tmp_path: Path, art: str) -> Path:
    deck = parse_deck_text(
        "game: pocketmodel\ncards:\n"
        "  - {kind: unit, name: Lancer, stars: 3, attack: 4, damage: 2, defense: 8, "
        f"shields: 2, icons: Leader, image: {art}}}\n",
        games=CARD_GAMES,
        source="art.yaml",
    )
    out = tmp_path / "art.pdf"
    options = RenderOptions(duplex=Duplex.NONE, qr=False, crop_marks=False)
    render_deck(deck, options, out, base_dir=tmp_path)
    return out


def test_a_phone_photo_prints_upright_on_the_card(tmp_path: Path) -> None:
    phone_photo(tmp_path / "photo.jpg", 6)
    with Image.open(tmp_path / "photo.jpg") as stored:
        assert stored.size == (400, 300)  # stored landscape, shown portrait
    pdf = deck_with_art(tmp_path, "photo.jpg")
    assert_upright(centroids(render_pixels(pdf, dpi=150)))
    # the JPEG is embedded as it is (DCT, not re-encoded): its bytes are in the PDF
    assert (tmp_path / "photo.jpg").read_bytes()[-2000:] in pdf.read_bytes()


def image_colour_spaces(pdf: Path) -> list[str]:
    """The colour space of every image XObject, on the pages and inside their forms, each
    image once."""
    return [str(obj["/ColorSpace"]) for obj in image_xobjects(pdf)]


def adobe_rgb_to_srgb(rgb: tuple[int, int, int]) -> np.ndarray:
    """Adobe RGB (1998) -> sRGB by the published matrices (D65 both), independent of
    LittleCMS: gamma 563/256, RGB->XYZ of Adobe RGB, XYZ->sRGB linear, sRGB encoding."""
    linear = (np.array(rgb) / 255.0) ** (563 / 256)
    to_xyz = np.array(
        [[0.5767, 0.1856, 0.1882], [0.2973, 0.6274, 0.0753], [0.0270, 0.0707, 0.9911]]
    )
    to_srgb = np.array(
        [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
    )
    s = np.clip(to_srgb @ to_xyz @ linear, 0, 1)
    encoded = np.where(s <= 0.0031308, 12.92 * s, 1.055 * s ** (1 / 2.4) - 0.055)
    return np.asarray(encoded * 255)


@needs_profiles
def test_adobe_rgb_art_is_converted_to_srgb(tmp_path: Path) -> None:
    colour = (60, 160, 60)
    expected = adobe_rgb_to_srgb(colour)
    assert abs(expected - np.array(colour)).max() > 25  # a wrong program would show it
    Image.new("RGB", (300, 400), colour).save(tmp_path / "adobe.png", icc_profile=A98.read_bytes())
    art = prepare_image(tmp_path / "adobe.png")
    assert art.converted and art.source.endswith(".png")
    pdf = deck_with_art(tmp_path, "adobe.png")
    pixels = render_pixels(pdf)
    near = np.all(np.abs(pixels - expected) <= 4, axis=2)
    assert near.sum() > 2000  # the art window shows the sRGB colour
    assert not np.all(np.abs(pixels - np.array(colour)) <= 4, axis=2).any()
    assert image_colour_spaces(pdf) == ["/DeviceRGB"]


@needs_profiles
def test_a_cmyk_jpeg_is_converted_to_srgb_with_its_profile(tmp_path: Path) -> None:
    cyan = Image.new("CMYK", (300, 400), (255, 0, 0, 0))
    cyan.save(tmp_path / "cyan.jpg", "JPEG", quality=95, icc_profile=CMYK.read_bytes())
    expected = np.asarray(
        ImageCms.profileToProfile(
            Image.new("CMYK", (1, 1), (255, 0, 0, 0)),
            ImageCms.ImageCmsProfile(str(CMYK)),
            ImageCms.createProfile("sRGB"),
            outputMode="RGB",
        ).getpixel((0, 0))
    )
    # press cyan is a muted blue-green in sRGB, not Pillow's plain (0, 255, 255)
    assert expected[0] < 60 and 130 < expected[1] < 200 and expected[2] > 200
    pdf = deck_with_art(tmp_path, "cyan.jpg")
    assert image_colour_spaces(pdf) == ["/DeviceRGB"]  # not DeviceCMYK
    pixels = render_pixels(pdf)
    assert np.all(np.abs(pixels - expected) <= 6, axis=2).sum() > 2000
    assert not np.all(np.abs(pixels - np.array([0, 255, 255])) <= 30, axis=2).any()


def test_srgb_and_16_bit_art(tmp_path: Path) -> None:
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Image.new("RGB", (30, 40), (10, 20, 30)).save(tmp_path / "s.png", icc_profile=srgb)
    assert not prepare_image(tmp_path / "s.png").converted  # sRGB: embedded as it is
    grey16 = Image.fromarray(np.full((40, 30), 32768, dtype=np.uint16))
    grey16.save(tmp_path / "g16.png")
    with Image.open(tmp_path / "g16.png") as im:
        assert im.mode.startswith("I")  # ReportLab cannot embed this mode
    art = prepare_image(tmp_path / "g16.png")
    assert art.converted
    with Image.open(art.source) as im:
        assert im.mode == "RGB" and im.getpixel((0, 0)) == (128, 128, 128)
    deck_with_art(tmp_path, "g16.png")  # renders


@needs_profiles
def test_each_image_is_converted_once_and_cached_by_path_and_mtime(
    tmp_path: Path, art_cache: Path
) -> None:
    Image.new("RGB", (600, 800), (60, 160, 60)).save(
        tmp_path / "a.jpg", quality=90, icc_profile=A98.read_bytes()
    )
    _prepare.cache_clear()
    first = prepare_image(tmp_path / "a.jpg")
    for _ in range(1000):
        again = prepare_image(tmp_path / "a.jpg")
    # converted once: the 1,000 calls after it are a stat() and a cache hit each
    assert again is first and _prepare.cache_info().misses == 1
    assert _prepare.cache_info().hits == 1000
    assert [p.name for p in art_cache.glob("art/*")] == [Path(first.source).name]
    # a new file at the same path (new mtime) is prepared again
    Image.new("RGB", (60, 80), (60, 160, 60)).save(
        tmp_path / "a.jpg", quality=90, icc_profile=A98.read_bytes()
    )
    assert prepare_image(tmp_path / "a.jpg").size == (60, 80)


def test_a_back_image_from_a_phone_prints_upright(tmp_path: Path) -> None:
    phone_photo(tmp_path / "back.jpg", 8)
    deck = parse_deck_text(
        "game: toy-battle\nback: {image: back.jpg}\n"
        "cards: [{troop: Star, name: Star, colour: blue}]\n",
        games=CARD_GAMES,
        source="b.yaml",
    )
    out = tmp_path / "b.pdf"
    render_deck(deck, RenderOptions(duplex=Duplex.SEPARATE, qr=False), out, base_dir=tmp_path)
    assert_upright(centroids(render_pixels(tmp_path / "b-backs.pdf")))


def test_a_multi_picture_jpeg_from_a_phone_is_accepted(tmp_path: Path) -> None:
    from printables.deckfile import _image_problem

    first = upright_picture()
    first.save(tmp_path / "mpo.jpg", "MPO", save_all=True, append_images=[first.copy()])
    with Image.open(tmp_path / "mpo.jpg") as im:
        assert im.format == "MPO"
    assert _image_problem(tmp_path / "mpo.jpg") is None
    art = prepare_image(tmp_path / "mpo.jpg")
    assert art.converted and art.source.endswith(".jpg")  # the first picture, as a JPEG
    assert_upright(centroids(render_pixels(deck_with_art(tmp_path, "mpo.jpg"))))
