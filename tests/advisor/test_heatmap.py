import xml.etree.ElementTree as ET

from banker.advisor.heatmap import BOARD, CORNER, HEAT, NEUTRAL, SIDE, board_svg, heat_colour, square_box, wrap
from banker.advisor.markov import MoveRules, landing_distribution
from banker.edition import load_edition

SVG = "{http://www.w3.org/2000/svg}"


def test_corners_sit_where_the_real_board_has_them():
    far = BOARD - CORNER
    assert square_box(0)[:2] == (far, far)  # GO, bottom right
    assert square_box(10)[:2] == (0, far)  # Jail, bottom left
    assert square_box(20)[:2] == (0, 0)  # Free Parking, top left
    assert square_box(30)[:2] == (far, 0)  # Go to Jail, top right
    assert square_box(1)[0] > square_box(9)[0]  # the bottom row runs right to left
    assert square_box(11)[1] > square_box(19)[1]  # the left column runs upwards
    assert square_box(21)[0] < square_box(29)[0]
    assert square_box(31)[1] < square_box(39)[1]


def test_squares_tile_the_ring_without_overlap():
    boxes = [square_box(i)[:4] for i in range(40)]
    assert sum(w * h for _, _, w, h in boxes) == BOARD * BOARD - (9 * SIDE) ** 2
    for i, (x1, y1, w1, h1) in enumerate(boxes):
        assert 0 <= x1 <= BOARD - w1 and 0 <= y1 <= BOARD - h1
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_colour_ramp():
    assert heat_colour(0.01, 0.02, 0.03) == HEAT[0]
    assert heat_colour(0.02, 0.02, 0.03) == HEAT[0]
    assert heat_colour(0.05, 0.02, 0.03) == HEAT[-1]
    assert heat_colour(0.0, 0.02, 0.03) == NEUTRAL

    def brightness(colour):
        return sum(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    ramp = [heat_colour(0.02 + 0.001 * k, 0.02, 0.03) for k in range(11)]
    assert all(brightness(a) >= brightness(b) for a, b in zip(ramp, ramp[1:], strict=False))


def test_names_wrap_at_spaces_but_not_no_break_spaces():
    assert wrap("North Carolina Ave.", 12) == ["North", "Carolina", "Ave."]
    assert wrap("Park Place", 12) == ["Park Place"]
    assert wrap("Казанская ж.\u00a0д.", 10) == ["Казанская", "ж.\u00a0д."]


def test_every_group_strip_and_the_jail_split_are_drawn():
    edition = load_edition("ru")
    landing = landing_distribution(edition, MoveRules(jail="long"))
    root = ET.fromstring(board_svg(edition, landing, language="ru"))
    fills = {rect.get("fill") for rect in root.iter(SVG + "rect")}
    assert {"#8b4a2b", "#a9dcf5", "#d6398f", "#f5901e", "#e2231a", "#fde700", "#1a9c4f", "#1b56a8"} <= fills
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    assert "Тюрьма" in texts and "Просто посетитель" in texts
    assert "9,43%" in texts  # in jail, long stay
    assert "Где заканчиваются броски" in texts
