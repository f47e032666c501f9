"""Derives the BFCL live check set from the bfcl-eval wheel (see README.md).

    pip download bfcl-eval==2026.3.23 --no-deps -d /tmp/bfcl
    unzip -q /tmp/bfcl/bfcl_eval-2026.3.23-py3-none-any.whl -d /tmp/bfcl/whl
    python3 derive.py /tmp/bfcl/whl/bfcl_eval/data
"""
import json
import sys

CATEGORIES = ["live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"]
MAX_QUERY_CHARS = 4096  # tool_search's own bound on a query


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(data):
    catalog, requests = {}, []
    for category in CATEGORIES:
        answers = {a["id"]: a for a in lines(f"{data}/possible_answer/BFCL_v4_{category}.json")}
        for entry in lines(f"{data}/BFCL_v4_{category}.json"):
            for function in entry["function"]:
                name = function["name"]
                catalog.setdefault(name, {"name": name, "description": function.get("description", ""),
                                          "parameters": function.get("parameters", {})})
            answer = answers.get(entry["id"])
            query = " ".join(m["content"] for m in entry["question"][0] if m["role"] == "user").strip()
            if answer is None or not query or len(query) > MAX_QUERY_CHARS:
                continue
            relevant = []
            for call in answer["ground_truth"]:
                relevant += [name for name in call if name not in relevant]
            requests.append({"id": entry["id"], "category": category, "query": query, "relevant": relevant})
    with open("bfcl-live-catalog.json", "w", encoding="utf-8") as f:
        json.dump(list(catalog.values()), f, ensure_ascii=False)
    with open("bfcl-live-queries.jsonl", "w", encoding="utf-8") as f:
        for request in requests:
            f.write(json.dumps(request, ensure_ascii=False) + "\n")
    print(f"{len(catalog)} tools, {len(requests)} requests")


if __name__ == "__main__":
    main(sys.argv[1])
