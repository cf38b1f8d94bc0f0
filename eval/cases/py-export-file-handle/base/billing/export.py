import json


def export_json(invoices, path):
    with open(path, "w", encoding="utf-8") as out:
        json.dump([i.to_dict() for i in invoices], out)
