import csv
import json


def export_json(invoices, path):
    with open(path, "w", encoding="utf-8") as out:
        json.dump([i.to_dict() for i in invoices], out)


def export_csv(invoices, path):
    out = open(path, "w", newline="", encoding="utf-8")
    writer = csv.writer(out)
    writer.writerow(["number", "customer", "total"])
    for invoice in invoices:
        writer.writerow([invoice.number, invoice.customer, invoice.total])
