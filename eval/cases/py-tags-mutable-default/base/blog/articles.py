from dataclasses import dataclass, field


@dataclass
class Article:
    title: str
    tags: list[str] = field(default_factory=list)


def new_article(title):
    return Article(title=title)
