def delete_project(store, user, project_id):
    store.delete(project_id)
