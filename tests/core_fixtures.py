"""Small maps built in code for core and CLI tests."""
from engine.data.maps import MapFile


def small_map(**over) -> MapFile:
    data = {
        "schema_version": 1, "id": "small", "name": "Small test table", "unit": "in",
        "width": 24, "height": 24, "suits": ["toy"],
        "pieces": [{"id": "crate1", "kind": "crate", "shape": {"type": "polygon", "points": [[10, 10], [12, 10], [12, 12], [10, 12]]}}],
        "deployment": [{"side": 1, "points": [[0, 0], [24, 0], [24, 4], [0, 4]]},
                       {"side": 2, "points": [[0, 20], [24, 20], [24, 24], [0, 24]]}],
    }
    data.update(over)
    return MapFile.model_validate(data)
