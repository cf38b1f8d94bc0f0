def unique_recipients(emails):
    seen = []
    ordered = []
    for email in emails:
        key = email.strip().lower()
        if key not in seen:
            seen.append(key)
            ordered.append(key)
    return ordered
