def unique_recipients(emails):
    return sorted(set(e.strip().lower() for e in emails))
