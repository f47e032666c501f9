"""What every source's derive.py writes, in one place: the catalog as indented JSON and each set
of requests as JSON lines, next to the script, byte for byte as committed. A rebuild then differs
from the committed files only where the source's data does."""
import json
import os

# tool_search's own bound on a query: a longer request could not be asked.
MAX_QUERY_CHARS = 4096


def write_set(here, catalog, **request_sets):
    """Writes `catalog.json` and one `<name>.jsonl` per keyword (`queries=[...]`) into `here`."""
    with open(os.path.join(here, "catalog.json"), "w", encoding="utf-8") as f:
        json.dump(catalog, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for name, rows in request_sets.items():
        with open(os.path.join(here, name + ".jsonl"), "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
