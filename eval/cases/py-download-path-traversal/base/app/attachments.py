import os

UPLOAD_DIR = "/srv/uploads"


def attachment_size(name):
    return os.path.getsize(os.path.join(UPLOAD_DIR, os.path.basename(name)))
