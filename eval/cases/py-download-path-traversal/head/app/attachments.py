import os

UPLOAD_DIR = "/srv/uploads"


def attachment_size(name):
    return os.path.getsize(os.path.join(UPLOAD_DIR, os.path.basename(name)))


def read_attachment(request):
    name = request.args["file"]
    with open(os.path.join(UPLOAD_DIR, name), "rb") as f:
        return f.read()
