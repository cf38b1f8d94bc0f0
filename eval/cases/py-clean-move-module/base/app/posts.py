from app.slug import slugify


def post_url(title):
    return "/posts/" + slugify(title)
