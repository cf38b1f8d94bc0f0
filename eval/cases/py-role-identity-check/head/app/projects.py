class Forbidden(Exception):
    pass


def delete_project(store, user, project_id):
    if user.role is not "admin":
        raise Forbidden("only admins may delete projects")
    store.delete(project_id)
