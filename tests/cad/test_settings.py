import pytest

from cad.settings import BED_PRESETS, PrintSettings, SettingsError, parse_bed, parse_colour


def test_presets_cover_the_common_beds() -> None:
    sizes = {(b.x, b.y) for b in BED_PRESETS.values()}
    assert {(180, 180), (250, 210), (256, 256)} <= sizes


def test_custom_bed_parses_width_depth_and_optional_height() -> None:
    bed = parse_bed("235x220")
    assert (bed.name, bed.x, bed.y, bed.z) == ("custom", 235, 220, 200)
    assert parse_bed("300X300X400").z == 400


@pytest.mark.parametrize("text", ["foo", "235", "x235", "10x10"])
def test_bad_printer_names_the_option_and_the_choices(text: str) -> None:
    with pytest.raises(SettingsError) as info:
        parse_bed(text)
    assert info.value.option == "--printer"
    assert "got" in str(info.value) or "mini" in str(info.value)


@pytest.mark.parametrize(
    ("field", "value", "option"),
    [
        ("scale", 0, "--scale"),
        ("scale", 3, "--scale"),
        ("xy_compensation", 0.1, "--xy-compensation"),
        ("xy_compensation", -0.6, "--xy-compensation"),
        ("layer_height", 0.5, "--layer-height"),
        ("engraving_layers", 0, "--engraving-layers"),
    ],
)
def test_out_of_range_settings_name_option_range_and_value(
    field: str, value: float, option: str
) -> None:
    with pytest.raises(SettingsError) as info:
        PrintSettings(**{field: value})
    message = str(info.value)
    assert message.startswith(option + ":")
    assert f"got {value!r}" in message
    assert "between" in message or ".." in message


def test_colours_accept_names_and_hex() -> None:
    assert parse_colour("White", "--symbol-colour") == "#F2F2F2"
    assert parse_colour("#00ff7f", "--colour-a") == "#00FF7F"
    with pytest.raises(SettingsError, match="--colour-b: unknown colour 'mauve'"):
        parse_colour("mauve", "--colour-b")


def test_engraving_depth_is_whole_layers_and_not_scaled() -> None:
    assert PrintSettings(scale=0.8, engraving_layers=2).engraving_depth == pytest.approx(0.4)


@pytest.mark.parametrize("border", [-1.0, 30.5])
def test_bed_border_outside_0_to_30_mm_is_refused(border: float) -> None:
    with pytest.raises(SettingsError) as info:
        PrintSettings(bed_border=border)
    assert info.value.option == "--bed-border" and "between 0 and 30 mm" in str(info.value)
